// Parsing of the `x-` vocabulary (docs/x-vocabulary.md). Each reader checks the form of one extension
// and throws a SpecError naming the spec, the JSON pointer and what is wrong.
import { SpecError } from '../load/errors.js';
import { FIELD_ROLES, LIST_QUERY_ROLES, type AliasRename, type FieldInfo, type JsonValue, type ListQueryRole, type OperationSemantics, type Provenance, type SchemaSemantics } from './ir.js';

export const VOCABULARY = {
  operation: new Set(['x-provenance', 'x-provenance-note', 'x-operation', 'x-permission', 'x-workspace-required', 'x-pagination', 'x-soft-delete', 'x-restore', 'x-rules', 'x-emits', 'x-deprecated-alias-of', 'x-alias-renames']),
  schema: new Set(['x-provenance', 'x-provenance-note', 'x-resource', 'x-lifecycle', 'x-versioned', 'x-exactly-one-of', 'x-workspace']),
  property: new Set(['x-provenance', 'x-provenance-note', 'x-normalize', 'x-unique', 'x-replace', 'x-null', 'x-references', 'x-field-role']),
  parameter: new Set(['x-provenance', 'x-provenance-note', 'x-scope', 'x-list-query']),
  other: new Set(['x-provenance', 'x-provenance-note']),
  root: new Set(['x-handlers']),
};

const ACTIONS = ['list', 'create', 'get', 'update', 'delete', 'versions', 'revert', 'restore', 'duplicate', 'custom'] as const;

/**
 * The rule and event names the spec may use (`x-rules`, `x-handlers`, `x-emits`): handed in by whoever wires the rule
 * modules (src/pipeline.ts gives the sandbox's list); without it, names are taken as written.
 */
export interface KnownNames {
  rules: ReadonlySet<string>;
  events: ReadonlySet<string>;
}

export class Reader {
  constructor(
    readonly spec: string,
    private readonly lineOf: (pointer: string) => number | undefined,
    private readonly known?: KnownNames,
  ) {}

  private knownRule(name: string): boolean {
    return this.known === undefined || this.known.rules.has(name);
  }

  private knownEvent(name: string): boolean {
    return this.known === undefined || this.known.events.has(name);
  }

  fail(pointer: string, reason: string): never {
    throw new SpecError(this.spec, pointer, reason, this.lineOf(pointer));
  }

  object(value: unknown, pointer: string): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail(pointer, 'must be an object');
    return value as Record<string, unknown>;
  }

  string(value: unknown, pointer: string): string {
    if (typeof value !== 'string' || value === '') this.fail(pointer, 'must be a non-empty string');
    return value;
  }

  strings(value: unknown, pointer: string): string[] {
    if (!Array.isArray(value)) this.fail(pointer, 'must be a list of strings');
    return value.map((v, i) => this.string(v, `${pointer}/${i}`));
  }

  oneOf<T extends string>(value: unknown, allowed: readonly T[], pointer: string): T {
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) this.fail(pointer, `must be one of ${allowed.join(', ')}`);
    return value as T;
  }

  /** Reject keys of an extension object that the vocabulary does not define. */
  onlyKeys(obj: Record<string, unknown>, allowed: string[], pointer: string): void {
    for (const key of Object.keys(obj)) if (!allowed.includes(key)) this.fail(`${pointer}/${esc(key)}`, `unknown key; allowed: ${allowed.join(', ')}`);
  }

  provenance(node: Record<string, unknown>, pointer: string, inherited: Provenance | undefined): Provenance | undefined {
    const source = node['x-provenance'];
    const note = node['x-provenance-note'];
    if (source === undefined) {
      if (note !== undefined) this.fail(`${pointer}/x-provenance-note`, 'x-provenance-note needs an x-provenance beside it');
      return inherited;
    }
    const value = this.oneOf(source, ['seed', 'inferred', 'assumed'] as const, `${pointer}/x-provenance`);
    if (note !== undefined) this.string(note, `${pointer}/x-provenance-note`);
    if (value === 'assumed' && typeof note !== 'string') this.fail(`${pointer}/x-provenance`, 'an assumed statement needs an x-provenance-note saying why');
    return note === undefined ? { source: value } : { source: value, note: note as string };
  }

  operationSemantics(op: Record<string, unknown>, pointer: string): OperationSemantics {
    const s: OperationSemantics = { permissions: [], workspaceRequired: false, rules: [], emits: [] };
    if (op['x-operation'] !== undefined) {
      const p = `${pointer}/x-operation`;
      const v = this.object(op['x-operation'], p);
      this.onlyKeys(v, ['resource', 'action', 'sets', 'renames', 'resets', 'copies-with'], p);
      s.resource = this.string(v.resource, `${p}/resource`);
      s.action = this.oneOf(v.action, ACTIONS, `${p}/action`);
      if (v.sets !== undefined) {
        const sets = this.object(v.sets, `${p}/sets`);
        if (s.action !== 'custom') this.fail(`${p}/sets`, 'only a custom action can set fields');
        if (Object.keys(sets).length === 0) this.fail(`${p}/sets`, 'must set at least one field');
        s.sets = sets as Record<string, JsonValue>;
      }
      if (v.renames !== undefined) {
        if (s.action !== 'duplicate') this.fail(`${p}/renames`, 'only a duplicate action renames fields');
        s.renames = this.strings(v.renames, `${p}/renames`);
      }
      if (v.resets !== undefined) {
        if (s.action !== 'duplicate') this.fail(`${p}/resets`, 'only a duplicate action resets fields');
        s.resets = this.strings(v.resets, `${p}/resets`);
      }
      if (v['copies-with'] !== undefined) {
        if (s.action !== 'duplicate') this.fail(`${p}/copies-with`, 'only a duplicate action copies fields on request');
        const copies = this.object(v['copies-with'], `${p}/copies-with`);
        s.copiesWith = Object.entries(copies).map(([flag, fields]) => ({ flag, fields: this.strings(fields, `${p}/copies-with/${flag}`) }));
      }
    }
    const permission = op['x-permission'];
    if (permission !== undefined) s.permissions = typeof permission === 'string' ? [this.string(permission, `${pointer}/x-permission`)] : this.strings(permission, `${pointer}/x-permission`);
    if (op['x-workspace-required'] !== undefined) {
      if (typeof op['x-workspace-required'] !== 'boolean') this.fail(`${pointer}/x-workspace-required`, 'must be true or false');
      s.workspaceRequired = op['x-workspace-required'] as boolean;
    }
    if (op['x-pagination'] !== undefined) {
      const p = `${pointer}/x-pagination`;
      const v = this.object(op['x-pagination'], p);
      this.onlyKeys(v, ['items', 'page_size', 'page_token', 'next_page_token', 'total'], p);
      s.pagination = { items: this.string(v.items, `${p}/items`), pageSize: this.string(v.page_size, `${p}/page_size`), pageToken: this.string(v.page_token, `${p}/page_token`), nextPageToken: this.string(v.next_page_token, `${p}/next_page_token`) };
      if (v.total !== undefined) s.pagination.total = this.string(v.total, `${p}/total`);
    }
    if (op['x-soft-delete'] !== undefined) {
      const p = `${pointer}/x-soft-delete`;
      const v = this.object(op['x-soft-delete'], p);
      this.onlyKeys(v, ['respond', 'repeat'], p);
      s.softDelete = { respond: this.oneOf(v.respond, ['resource', 'empty'] as const, `${p}/respond`), repeat: this.oneOf(v.repeat, ['ok', 'not-found'] as const, `${p}/repeat`) };
    }
    if (op['x-restore'] !== undefined) {
      const p = `${pointer}/x-restore`;
      const v = this.object(op['x-restore'], p);
      this.onlyKeys(v, ['noop-when-active'], p);
      s.restore = { noopWhenActive: v['noop-when-active'] === true };
    }
    if (op['x-rules'] !== undefined) {
      s.rules = this.strings(op['x-rules'], `${pointer}/x-rules`);
      s.rules.forEach((r, i) => this.knownRule(r) || this.fail(`${pointer}/x-rules/${i}`, `unknown rule ${JSON.stringify(r)}; known rules are listed in src/sandbox/rules/names.ts`));
    }
    if (op['x-emits'] !== undefined) {
      s.emits = this.strings(op['x-emits'], `${pointer}/x-emits`);
      s.emits.forEach((e, i) => this.knownEvent(e) || this.fail(`${pointer}/x-emits/${i}`, `unknown event ${JSON.stringify(e)}`));
    }
    if (op['x-deprecated-alias-of'] !== undefined) s.aliasOf = this.string(op['x-deprecated-alias-of'], `${pointer}/x-deprecated-alias-of`);
    if (op['x-alias-renames'] !== undefined) {
      if (s.aliasOf === undefined) this.fail(`${pointer}/x-alias-renames`, 'only a legacy alias (x-deprecated-alias-of) can rename');
      s.aliasRenames = this.aliasRenames(op['x-alias-renames'], `${pointer}/x-alias-renames`);
    }
    return s;
  }

  /** `{ <legacy>: <canonical> | { name: <canonical>, values: { <legacy value>: <canonical value> } } }`. */
  aliasRenames(value: unknown, pointer: string): AliasRename[] {
    const map = this.object(value, pointer);
    if (Object.keys(map).length === 0) this.fail(pointer, 'must rename at least one name');
    const canonicals = new Set<string>();
    return Object.entries(map).map(([legacy, target]) => {
      const p = `${pointer}/${esc(legacy)}`;
      let rename: AliasRename;
      if (typeof target === 'string') rename = { legacy, canonical: this.string(target, p) };
      else {
        const o = this.object(target, p);
        this.onlyKeys(o, ['name', 'values'], p);
        rename = { legacy, canonical: this.string(o.name, `${p}/name`) };
        if (o.values !== undefined) {
          const values = this.object(o.values, `${p}/values`);
          const seen = new Set<string>();
          for (const [from, to] of Object.entries(values)) {
            const canonicalValue = this.string(to, `${p}/values/${esc(from)}`);
            // Answers map canonical values back to legacy ones, so the mapping must be one-to-one.
            if (seen.has(canonicalValue)) this.fail(`${p}/values/${esc(from)}`, `maps a second legacy value to ${JSON.stringify(canonicalValue)}; the mapping must be one-to-one`);
            seen.add(canonicalValue);
          }
          rename.values = values as Record<string, string>;
        }
      }
      if (rename.canonical === legacy) this.fail(p, 'renames a name to itself');
      if (canonicals.has(rename.canonical)) this.fail(p, `a second legacy name for ${JSON.stringify(rename.canonical)}`);
      canonicals.add(rename.canonical);
      return rename;
    });
  }

  schemaSemantics(schema: Record<string, unknown>, pointer: string): SchemaSemantics {
    const s: SchemaSemantics = {};
    const props = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    const needProp = (name: string, p: string): string => (props.includes(name) ? name : this.fail(p, `names ${JSON.stringify(name)}, which is not a property of this schema`));
    if (schema['x-resource'] !== undefined) {
      const p = `${pointer}/x-resource`;
      const v = this.object(schema['x-resource'], p);
      this.onlyKeys(v, ['name', 'id', 'scope'], p);
      s.resource = { name: this.string(v.name, `${p}/name`), id: needProp(this.string(v.id, `${p}/id`), `${p}/id`), scope: this.oneOf(v.scope, ['organization', 'workspace'] as const, `${p}/scope`) };
    }
    if (schema['x-lifecycle'] !== undefined) {
      const p = `${pointer}/x-lifecycle`;
      const v = this.object(schema['x-lifecycle'], p);
      this.onlyKeys(v, ['field', 'initial', 'deleted', 'hidden', 'frozen'], p);
      const frozen = v.frozen === undefined ? [] : (Array.isArray(v.frozen) ? v.frozen : this.fail(`${p}/frozen`, 'must be a list')).map((f, i) => {
        const o = this.object(f, `${p}/frozen/${i}`);
        this.onlyKeys(o, ['field', 'equals'], `${p}/frozen/${i}`);
        return { field: needProp(this.string(o.field, `${p}/frozen/${i}/field`), `${p}/frozen/${i}/field`), equals: o.equals as JsonValue };
      });
      s.lifecycle = {
        ...(v.field === undefined ? {} : { field: needProp(this.string(v.field, `${p}/field`), `${p}/field`) }),
        ...(v.initial === undefined ? {} : { initial: this.string(v.initial, `${p}/initial`) }),
        ...(v.deleted === undefined ? {} : { deleted: this.string(v.deleted, `${p}/deleted`) }),
        hidden: v.hidden === undefined ? [] : this.strings(v.hidden, `${p}/hidden`),
        frozen,
      };
    }
    if (schema['x-versioned'] !== undefined) {
      const p = `${pointer}/x-versioned`;
      const v = this.object(schema['x-versioned'], p);
      this.onlyKeys(v, ['tracked', 'history', 'change-types'], p);
      const tracked = this.strings(v.tracked, `${p}/tracked`);
      tracked.forEach((t, i) => needProp(t, `${p}/tracked/${i}`));
      s.versioned = { tracked, ...(v.history === undefined ? {} : { history: this.string(v.history, `${p}/history`) }), changeTypes: v['change-types'] === undefined ? ['save', 'revert'] : this.strings(v['change-types'], `${p}/change-types`) };
    }
    if (schema['x-workspace'] !== undefined) {
      const p = `${pointer}/x-workspace`;
      const v = this.object(schema['x-workspace'], p);
      this.onlyKeys(v, ['live', 'default'], p);
      if (s.resource === undefined) this.fail(p, 'only a resource (x-resource) can be the workspace');
      const defaults = v.default === undefined ? {} : this.object(v.default, `${p}/default`);
      for (const key of Object.keys(defaults)) needProp(key, `${p}/default/${esc(key)}`);
      // The live state is a value of the lifecycle's field (checked against its enumeration once the catalog is known).
      if (v.live !== undefined && s.lifecycle?.field === undefined) this.fail(`${p}/live`, 'a live state needs the x-lifecycle field that holds the state');
      s.workspace = { ...(v.live === undefined ? {} : { live: this.string(v.live, `${p}/live`) }), defaults: defaults as Record<string, JsonValue> };
    }
    if (schema['x-exactly-one-of'] !== undefined) {
      const p = `${pointer}/x-exactly-one-of`;
      const names = this.strings(schema['x-exactly-one-of'], p);
      if (names.length < 2) this.fail(p, 'needs at least two property names');
      names.forEach((n, i) => needProp(n, `${p}/${i}`));
      s.exactlyOneOf = names;
    }
    return s;
  }

  fieldInfo(prop: Record<string, unknown>, pointer: string, provenance: Provenance): FieldInfo {
    const info: FieldInfo = { provenance };
    if (prop['x-normalize'] !== undefined) info.normalize = this.oneOf(prop['x-normalize'], ['lowercase'] as const, `${pointer}/x-normalize`);
    if (prop['x-unique'] !== undefined) {
      const p = `${pointer}/x-unique`;
      const v = this.object(prop['x-unique'], p);
      this.onlyKeys(v, ['among', 'scope'], p);
      info.unique = { among: this.oneOf(v.among, ['active', 'all'] as const, `${p}/among`), scope: this.oneOf(v.scope, ['organization', 'workspace'] as const, `${p}/scope`) };
    }
    if (prop['x-replace'] !== undefined) info.replace = this.oneOf(prop['x-replace'], ['whole-set'] as const, `${pointer}/x-replace`);
    if (prop['x-null'] !== undefined) info.null = this.oneOf(prop['x-null'], ['clear', 'ignore', 'rule'] as const, `${pointer}/x-null`);
    if (prop['x-references'] !== undefined) info.references = this.string(prop['x-references'], `${pointer}/x-references`);
    if (prop['x-field-role'] !== undefined) info.role = this.oneOf(prop['x-field-role'], FIELD_ROLES, `${pointer}/x-field-role`);
    return info;
  }

  scope(param: Record<string, unknown>, pointer: string): 'workspace' | undefined {
    return param['x-scope'] === undefined ? undefined : this.oneOf(param['x-scope'], ['workspace'] as const, `${pointer}/x-scope`);
  }

  /** x-list-query: only on a query parameter (the operation being a list is checked once the catalog is known). */
  listQuery(param: Record<string, unknown>, pointer: string): ListQueryRole | undefined {
    if (param['x-list-query'] === undefined) return undefined;
    const role = this.oneOf(param['x-list-query'], LIST_QUERY_ROLES, `${pointer}/x-list-query`);
    if (param.in !== 'query') this.fail(`${pointer}/x-list-query`, 'only a query parameter can play a list-query role');
    return role;
  }

  handlers(root: Record<string, unknown>): { on: string; rule: string }[] {
    if (root['x-handlers'] === undefined) return [];
    const list = root['x-handlers'];
    if (!Array.isArray(list)) this.fail('#/x-handlers', 'must be a list of { on, rule }');
    return list.map((h, i) => {
      const p = `#/x-handlers/${i}`;
      const o = this.object(h, p);
      this.onlyKeys(o, ['on', 'rule'], p);
      const on = this.string(o.on, `${p}/on`);
      if (!this.knownEvent(on)) this.fail(`${p}/on`, `unknown event ${JSON.stringify(on)}`);
      const rule = this.string(o.rule, `${p}/rule`);
      if (!this.knownRule(rule)) this.fail(`${p}/rule`, `unknown rule ${JSON.stringify(rule)}; known rules are listed in src/sandbox/rules/names.ts`);
      return { on, rule };
    });
  }

  /** Strict policy: only vocabulary keys are allowed where the vocabulary applies. */
  onlyVocabulary(node: Record<string, unknown>, allowed: Set<string>, pointer: string): void {
    for (const key of Object.keys(node)) if (key.startsWith('x-') && !allowed.has(key)) this.fail(`${pointer}/${esc(key)}`, `unknown extension ${key}; see docs/x-vocabulary.md`);
  }
}

export function esc(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
