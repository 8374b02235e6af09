// Two JSON Schemas of one place (a request body, a parameter, a response) compared in the direction data flows:
// what a client sends (request) may not be narrowed, what it receives (response) may not be widened. The
// classes follow oasdiff's documented checks (request-property-removed, response-enum-value-added, ...).
import type { ApiModel, JsonValue, SchemaNode } from '../model/ir.js';
import type { Change, Level } from './change.js';
import { join } from './pointer.js';

export type Direction = 'request' | 'response';

export interface SchemaContext {
  before: ApiModel;
  after: ApiModel;
  subject: string;
  direction: Direction;
  changes: Change[];
  /** Pairs of named schemas already compared at this place (references can be cyclic). */
  seen: Set<string>;
}

type SchemaObject = Record<string, JsonValue>;

/** Text keywords: a change is description-only. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', '$comment']);
/** Keywords handled below (everything else that changes is reported as a schema change, breaking). */
const HANDLED = new Set(['$ref', 'type', 'enum', 'properties', 'required', 'items', 'prefixItems', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', 'pattern', 'format', 'default', 'deprecated', 'readOnly', 'writeOnly']);
/** A larger value allows more. */
const UPPER = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
/** A smaller value allows more. */
const LOWER = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];

const kebab = (text: string): string => text.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const short = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'none';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

function add(ctx: SchemaContext, level: Level, kind: string, pointer: string, detail?: string): void {
  ctx.changes.push({ level, kind: `${ctx.direction}-${kind}`, subject: ctx.subject, pointer, ...(detail === undefined ? {} : { detail }) });
}

/** Breaking when the change narrows a request or widens a response. */
function levelFor(ctx: SchemaContext, narrows: boolean): Level {
  return (ctx.direction === 'request') === narrows ? 'breaking' : 'non-breaking';
}

function refName(node: SchemaNode | undefined): string | undefined {
  if (node === undefined || typeof node === 'boolean' || typeof node.$ref !== 'string') return undefined;
  const match = /^#\/\$defs\/(.+)$/.exec(node.$ref);
  return match ? match[1] : undefined;
}

function resolved(model: ApiModel, node: SchemaNode): SchemaNode {
  let current = node;
  for (let hops = 0; hops < 64; hops++) {
    const name = refName(current);
    const target = name === undefined ? undefined : model.schemas[name];
    if (!target) return current;
    // A $ref with siblings keeps them (2020-12); the target's keywords are read first.
    const { $ref: _ref, ...siblings } = current as SchemaObject;
    current = Object.keys(siblings).length === 0 ? target.schema : typeof target.schema === 'boolean' ? target.schema : { ...target.schema, ...siblings };
  }
  return current;
}

function types(node: SchemaObject): string[] | undefined {
  if (node.type === undefined) return undefined;
  return (Array.isArray(node.type) ? node.type : [node.type]).map(String).sort();
}

const subset = (a: readonly string[], b: readonly string[]): boolean => a.every((x) => b.includes(x));

export function compareSchema(ctx: SchemaContext, beforeNode: SchemaNode | undefined, afterNode: SchemaNode | undefined, pointer: string): void {
  if (beforeNode === undefined || afterNode === undefined) return;
  const pair = `${refName(beforeNode) ?? ''}|${refName(afterNode) ?? ''}|${pointer.split('/').length > 40 ? 'deep' : ''}`;
  if (refName(beforeNode) !== undefined && refName(afterNode) !== undefined) {
    if (ctx.seen.has(pair)) return;
    ctx.seen.add(pair);
  }
  const a = resolved(ctx.before, beforeNode);
  const b = resolved(ctx.after, afterNode);
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    if (a !== b) add(ctx, 'breaking', 'schema-changed', pointer, `${short(a)} -> ${short(b)}`);
    return;
  }
  const wa = wrapper(a);
  const wb = wrapper(b);
  if (wa !== undefined || wb !== undefined) {
    compareThroughWrappers(ctx, a, b, wa, wb, pointer);
    return;
  }
  compareObjects(ctx, a, b, pointer);
}

/** `{type: 'null'}` (the model writes `['null']`), the null member of a nullable union. */
const isNullType = (node: SchemaNode): boolean => typeof node === 'object' && node !== null && Object.keys(node).length === 1 && JSON.stringify(types(node as SchemaObject)) === '["null"]';

/**
 * A schema written around exactly one other: `allOf: [M]` (how siblings such as a default are put beside a $ref)
 * is M, and `oneOf`/`anyOf: [M, {type: 'null'}]` is M that also allows null. `rest` is the wrapper's own keywords.
 */
function wrapper(node: SchemaObject): { member: SchemaNode; nullable: boolean; rest: SchemaObject } | undefined {
  const composed = ['allOf', 'anyOf', 'oneOf'].filter((k) => Array.isArray(node[k]));
  if (composed.length !== 1) return undefined;
  const keyword = composed[0]!;
  const members = node[keyword] as SchemaNode[];
  const { [keyword]: _members, ...rest } = node;
  if (keyword === 'allOf') return members.length === 1 ? { member: members[0]!, nullable: false, rest } : undefined;
  if (members.length !== 2 || members.filter(isNullType).length !== 1) return undefined;
  return { member: members.find((m) => !isNullType(m))!, nullable: true, rest };
}

/**
 * One side (or both) is a wrapper: rewriting `allOf: [M]` as M, or `T | null` as `oneOf: [T, null]`, changes no
 * data. The members are compared at the wrapper's place (through compareSchema, so $ref cycles stay guarded), the
 * wrappers' own keywords beside them, and a change of whether null is allowed is a type change of its own.
 */
function compareThroughWrappers(ctx: SchemaContext, a: SchemaObject, b: SchemaObject, wa: ReturnType<typeof wrapper>, wb: ReturnType<typeof wrapper>, pointer: string): void {
  const withoutNull = (node: SchemaObject): SchemaObject => {
    const t = types(node);
    return t?.includes('null') ? { ...node, type: t.filter((x) => x !== 'null') } : node;
  };
  const nullable = (node: SchemaObject, w: ReturnType<typeof wrapper>): boolean => w?.nullable === true || (types(node)?.includes('null') ?? false);
  const na = nullable(a, wa);
  const nb = nullable(b, wb);
  compareSchema(ctx, wa ? wa.member : withoutNull(a), wb ? wb.member : withoutNull(b), pointer);
  for (const keyword of ['default', ...ANNOTATIONS]) {
    const x = (wa ? wa.rest : a)[keyword];
    const y = (wb ? wb.rest : b)[keyword];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    // The member's own value was compared with the member; only a wrapper's own keyword is reported here.
    if ((wa === undefined && x !== undefined) || (wb === undefined && y !== undefined)) continue;
    if (keyword === 'default') add(ctx, 'non-breaking', 'default-changed', join(pointer, 'default'), `${short(x)} -> ${short(y)}`);
    else ctx.changes.push({ level: 'description', kind: `${keyword === 'description' ? 'description' : 'annotation'}-changed`, subject: ctx.subject, pointer: join(pointer, keyword) });
  }
  if (na !== nb) add(ctx, levelFor(ctx, !nb), nb ? 'type-widened' : 'type-narrowed', pointer, nb ? 'null allowed' : 'null no longer allowed');
}

function compareObjects(ctx: SchemaContext, a: SchemaObject, b: SchemaObject, pointer: string): void {
  // Types: a request may accept more, a response may return fewer.
  const ta = types(a);
  const tb = types(b);
  if (JSON.stringify(ta) !== JSON.stringify(tb)) {
    const widened = tb === undefined || (ta !== undefined && subset(ta, tb));
    const narrowed = ta === undefined || (tb !== undefined && subset(tb, ta));
    const kind = widened ? 'type-widened' : narrowed ? 'type-narrowed' : 'type-changed';
    add(ctx, widened ? levelFor(ctx, false) : narrowed ? levelFor(ctx, true) : 'breaking', kind, pointer, `${short(ta ?? 'any')} -> ${short(tb ?? 'any')}`);
  }
  compareEnum(ctx, a, b, pointer);
  for (const keyword of [...UPPER, ...LOWER]) {
    const x = a[keyword];
    const y = b[keyword];
    if (x === y) continue;
    const upper = UPPER.includes(keyword);
    // A bound set where there was none narrows; one removed widens.
    const narrows = y === undefined ? false : x === undefined ? true : upper ? (y as number) < (x as number) : (y as number) > (x as number);
    const verb = x === undefined ? 'set' : y === undefined ? 'removed' : (y as number) > (x as number) ? 'increased' : 'decreased';
    add(ctx, levelFor(ctx, narrows), `${kebab(keyword)}-${verb}`, join(pointer, keyword), `${short(x)} -> ${short(y)}`);
  }
  for (const keyword of ['pattern', 'format']) {
    if (a[keyword] === b[keyword]) continue;
    // A new or different constraint may refuse what was allowed; only its removal surely widens.
    const narrows = b[keyword] !== undefined;
    const verb = a[keyword] === undefined ? 'added' : b[keyword] === undefined ? 'removed' : 'changed';
    const level = verb === 'changed' ? 'breaking' : levelFor(ctx, narrows);
    add(ctx, level, `${keyword}-${verb}`, join(pointer, keyword), `${short(a[keyword])} -> ${short(b[keyword])}`);
  }
  compareProperties(ctx, a, b, pointer);
  compareComposition(ctx, a, b, pointer);
  if (a.additionalProperties !== b.additionalProperties) {
    const x = a.additionalProperties;
    const y = b.additionalProperties;
    if (x !== null && y !== null && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) compareSchema(ctx, x as SchemaNode, y as SchemaNode, join(pointer, 'additionalProperties'));
    else if (JSON.stringify(x) !== JSON.stringify(y)) add(ctx, levelFor(ctx, y === false), 'additional-properties-changed', join(pointer, 'additionalProperties'), `${short(x ?? true)} -> ${short(y ?? true)}`);
  }
  compareSchema(ctx, a.items as SchemaNode | undefined, b.items as SchemaNode | undefined, join(pointer, 'items'));
  if (a.items !== undefined && b.items === undefined) add(ctx, levelFor(ctx, false), 'items-removed', join(pointer, 'items'));
  if (a.items === undefined && b.items !== undefined) add(ctx, levelFor(ctx, true), 'items-added', join(pointer, 'items'));
  if (a.deprecated !== true && b.deprecated === true) add(ctx, 'non-breaking', 'property-deprecated', join(pointer, 'deprecated'));
  if (JSON.stringify(a.default) !== JSON.stringify(b.default)) add(ctx, 'non-breaking', 'default-changed', join(pointer, 'default'), `${short(a.default)} -> ${short(b.default)}`);
  for (const keyword of ['readOnly', 'writeOnly']) {
    if ((a[keyword] === true) !== (b[keyword] === true)) add(ctx, 'breaking', `${kebab(keyword)}-changed`, join(pointer, keyword), `${a[keyword] === true} -> ${b[keyword] === true}`);
  }
  const keywords = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const keyword of [...keywords].sort()) {
    if (HANDLED.has(keyword) || UPPER.includes(keyword) || LOWER.includes(keyword) || keyword.startsWith('x-')) continue;
    if (JSON.stringify(a[keyword]) === JSON.stringify(b[keyword])) continue;
    if (ANNOTATIONS.has(keyword)) ctx.changes.push({ level: 'description', kind: `${keyword === 'description' ? 'description' : 'annotation'}-changed`, subject: ctx.subject, pointer: join(pointer, keyword) });
    else add(ctx, 'breaking', `${kebab(keyword.replace(/^\$/, ''))}-changed`, join(pointer, keyword), `${short(a[keyword])} -> ${short(b[keyword])}`);
  }
}

function compareEnum(ctx: SchemaContext, a: SchemaObject, b: SchemaObject, pointer: string): void {
  if (JSON.stringify(a.enum) === JSON.stringify(b.enum)) return;
  const at = join(pointer, 'enum');
  if (!Array.isArray(b.enum)) {
    add(ctx, levelFor(ctx, false), 'enum-removed', at);
    return;
  }
  if (!Array.isArray(a.enum)) {
    add(ctx, levelFor(ctx, true), 'enum-added', at, short(b.enum));
    return;
  }
  const before = new Set(a.enum.map((v) => JSON.stringify(v)));
  const after = new Set(b.enum.map((v) => JSON.stringify(v)));
  for (const value of after) if (!before.has(value)) add(ctx, levelFor(ctx, false), 'enum-value-added', at, value);
  for (const value of before) if (!after.has(value)) add(ctx, levelFor(ctx, true), 'enum-value-removed', at, value);
}

function compareProperties(ctx: SchemaContext, a: SchemaObject, b: SchemaObject, pointer: string): void {
  const pa = (a.properties ?? {}) as Record<string, SchemaNode>;
  const pb = (b.properties ?? {}) as Record<string, SchemaNode>;
  const ra = new Set((Array.isArray(a.required) ? a.required : []).map(String));
  const rb = new Set((Array.isArray(b.required) ? b.required : []).map(String));
  const names = [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort();
  for (const name of names) {
    const at = join(pointer, 'properties', name);
    const inA = Object.hasOwn(pa, name);
    const inB = Object.hasOwn(pb, name);
    if (inA && !inB) add(ctx, 'breaking', 'property-removed', at);
    else if (!inA && inB) {
      // A new request field breaks senders only when required; a new response field never does.
      if (ctx.direction === 'request') add(ctx, rb.has(name) ? 'breaking' : 'non-breaking', rb.has(name) ? 'new-required-property' : 'new-optional-property', at);
      else add(ctx, 'non-breaking', 'property-added', at);
    } else {
      if (!ra.has(name) && rb.has(name)) add(ctx, levelFor(ctx, true), 'property-became-required', at);
      if (ra.has(name) && !rb.has(name)) add(ctx, levelFor(ctx, false), 'property-became-optional', at);
      compareSchema(ctx, pa[name], pb[name], at);
    }
  }
  // Required names without a property schema (allowed in JSON Schema).
  for (const name of [...rb].filter((n) => !ra.has(n) && !names.includes(n)).sort()) add(ctx, levelFor(ctx, true), 'property-became-required', join(pointer, 'required', name));
}

function compareComposition(ctx: SchemaContext, a: SchemaObject, b: SchemaObject, pointer: string): void {
  for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    const xa = Array.isArray(a[keyword]) ? (a[keyword] as SchemaNode[]) : [];
    const xb = Array.isArray(b[keyword]) ? (b[keyword] as SchemaNode[]) : [];
    for (let i = 0; i < Math.min(xa.length, xb.length); i++) compareSchema(ctx, xa[i], xb[i], join(pointer, keyword, String(i)));
    if (xa.length === xb.length) continue;
    // More alternatives (anyOf/oneOf) accept more; more allOf members or tuple items constrain more.
    const more = xb.length > xa.length;
    const narrows = keyword === 'allOf' || keyword === 'prefixItems' ? more : !more;
    add(ctx, levelFor(ctx, narrows), `${kebab(keyword)}-${more ? 'added' : 'removed'}`, join(pointer, keyword), `${xa.length} -> ${xb.length} member(s)`);
  }
}
