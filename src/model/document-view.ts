// Helpers over one loaded document: local ref lookup, schema normalisation with the catalog's names,
// and strict-policy checks of extensions found inside schemas.
import type { LoadedDocument } from '../load/index.js';
import { pointerKeys, pointerOf } from '../load/errors.js';
import type { SchemaNode } from './ir.js';
import { normalizeSchema } from './normalize-schema.js';
import { Reader, VOCABULARY, type KnownNames } from './vocabulary.js';
import { defsRef } from './defs-ref.js';

export type Policy = 'strict' | 'lenient';

const ROOT_KEYS = new Set([...VOCABULARY.schema, ...VOCABULARY.property]);

export class DocumentView {
  readonly reader: Reader;
  readonly openapi30: boolean;
  readonly root: Record<string, unknown>;
  /** Refs inside schemas that point somewhere other than components/schemas: pointer -> synthetic local name. */
  readonly synthetic = new Map<string, string>();

  /** Local component schema name -> catalog-wide IR name (set by the schema-naming pass). */
  naming = new Map<string, string>();

  constructor(
    readonly doc: LoadedDocument,
    readonly policy: Policy,
    known?: KnownNames,
  ) {
    this.reader = new Reader(doc.name, doc.lineOf, known);
    this.root = doc.document;
    this.openapi30 = String(this.root.openapi ?? '').startsWith('3.0');
  }

  get spec(): string {
    return this.doc.name;
  }

  /** IR name of a local schema name; synthetic names (refs into non-component positions) are always spec-qualified. */
  globalName(local: string): string {
    return this.naming.get(local) ?? `${this.spec}.${local}`;
  }

  /** Follow a local `$ref` (repeatedly) and return the target with its pointer. */
  deref(node: unknown, pointer: string): { node: Record<string, unknown>; pointer: string } {
    let current = node;
    let at = pointer;
    const chain: string[] = [];
    for (let hops = 0; hops < 64; hops++) {
      const obj = this.reader.object(current, at);
      if (typeof obj.$ref !== 'string') return { node: obj, pointer: at };
      if (!obj.$ref.startsWith('#')) this.reader.fail(at, `unresolved external $ref ${JSON.stringify(obj.$ref)}`);
      if (chain.includes(obj.$ref)) this.reader.fail(pointer, `$ref cycle: ${[...chain, obj.$ref].join(' -> ')} never reaches an object`);
      chain.push(obj.$ref);
      at = obj.$ref;
      current = this.lookup(obj.$ref, pointer);
    }
    this.reader.fail(pointer, '$ref chain is longer than 64 hops (a cycle?)');
  }

  lookup(ref: string, from: string): unknown {
    let node: unknown = this.root;
    for (const key of pointerKeys(ref)) {
      if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) this.reader.fail(from, `$ref ${JSON.stringify(ref)} points at nothing`);
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  }

  /** Normalise a schema found at `pointer`, rewriting refs to the catalog's global names. */
  schema(input: unknown, pointer: string): SchemaNode {
    const base = pointerKeys(pointer);
    return normalizeSchema(input, {
      openapi30: this.openapi30,
      rewriteRef: (ref) => this.rewriteRef(ref, pointer),
      onExtension: (key, _value, path) => {
        if (this.policy !== 'strict') return;
        const inProperties = path.length >= 2 && path[path.length - 2] === 'properties';
        // A schema's root may carry schema vocabulary (and property vocabulary when it is a property's
        // $ref target); properties carry property vocabulary; anything deeper only provenance.
        const allowed = path.length === 0 ? ROOT_KEYS : inProperties ? VOCABULARY.property : VOCABULARY.other;
        if (!allowed.has(key)) this.reader.fail(`${pointerOf([...base, ...path])}/${key}`, `unknown extension ${key}; see docs/x-vocabulary.md`);
      },
    });
  }

  rewriteRef(ref: string, from: string): string | undefined {
    const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
    if (m) {
      const local = pointerKeys(ref)[2]!;
      if (this.lookup(ref, from) === undefined) this.reader.fail(from, `$ref ${JSON.stringify(ref)} points at nothing`);
      return defsRef(this.globalName(local));
    }
    if (ref.startsWith('#/')) {
      // A ref into some other schema position (for example a property of another schema): give the
      // target a synthetic name so it is emitted once and referenced like any named schema.
      this.lookup(ref, from);
      let name = this.synthetic.get(ref);
      if (!name) {
        name = pointerKeys(ref).filter((k) => k !== 'components' && k !== 'schemas').join('.');
        this.synthetic.set(ref, name);
      }
      return defsRef(this.globalName(name));
    }
    return undefined;
  }
}

