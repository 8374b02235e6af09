import type { JsonValue, SchemaNode } from '../../model/ir.js';
import { resolveRef } from './context.js';
import type { Context, State } from './context.js';
import { has, isObj, num, own, setOwn } from './json.js';
import { MAX_REF_REPEAT } from './limits.js';
import { matches } from './text.js';
import type { Obj } from './types.js';

// Merged constraints

export interface Group {
  kind: 'anyOf' | 'oneOf';
  branches: SchemaNode[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
}

export interface Cond {
  if: SchemaNode;
  then?: SchemaNode;
  else?: SchemaNode;
}

export interface Additional {
  schema: SchemaNode;
  props: Set<string>;
  patterns: string[];
}

export interface Merged {
  unsat: boolean;
  /** Allowed types in preference order; undefined = not constrained. */
  types?: string[];
  consts: JsonValue[];
  enums: JsonValue[][];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf: number[];
  minLength?: number;
  maxLength?: number;
  patterns: string[];
  formats: string[];
  items: SchemaNode[];
  prefixItems: SchemaNode[][];
  contains: SchemaNode[];
  minContains?: number;
  maxContains?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  properties: Map<string, SchemaNode[]>;
  patternProperties: [string, SchemaNode][];
  additional: Additional[];
  propertyNames: SchemaNode[];
  required: string[];
  minProperties?: number;
  maxProperties?: number;
  dependentRequired: [string, string[]][];
  dependentSchemas: [string, SchemaNode][];
  groups: Group[];
  /** Groups before this index have been resolved (a branch merged in). */
  groupsDone: number;
  conds: Cond[];
  condsDone: number;
  /** `dependentSchemas` entries before this index have been decided. */
  depsDone: number;
  nots: SchemaNode[];
  examples: JsonValue[];
  readOnly: boolean;
  /** `$ref`s followed while flattening. */
  refs: string[];
  /** Whether any keyword constrains each kind of value (for type inference when `type` is absent). */
  hints: Set<string>;
}

export function emptyMerged(): Merged {
  return {
    unsat: false,
    consts: [],
    enums: [],
    multipleOf: [],
    patterns: [],
    formats: [],
    items: [],
    prefixItems: [],
    contains: [],
    uniqueItems: false,
    properties: new Map(),
    patternProperties: [],
    additional: [],
    propertyNames: [],
    required: [],
    dependentRequired: [],
    dependentSchemas: [],
    groups: [],
    groupsDone: 0,
    conds: [],
    condsDone: 0,
    depsDone: 0,
    nots: [],
    examples: [],
    readOnly: false,
    refs: [],
    hints: new Set(),
  };
}

export function copyMerged(m: Merged): Merged {
  const properties = new Map<string, SchemaNode[]>();
  for (const [k, v] of m.properties) properties.set(k, [...v]);
  return {
    ...m,
    types: m.types ? [...m.types] : undefined,
    consts: [...m.consts],
    enums: [...m.enums],
    multipleOf: [...m.multipleOf],
    patterns: [...m.patterns],
    formats: [...m.formats],
    items: [...m.items],
    prefixItems: m.prefixItems.map((p) => [...p]),
    contains: [...m.contains],
    properties,
    patternProperties: [...m.patternProperties],
    additional: [...m.additional],
    propertyNames: [...m.propertyNames],
    required: [...m.required],
    dependentRequired: [...m.dependentRequired],
    dependentSchemas: [...m.dependentSchemas],
    groups: [...m.groups],
    conds: [...m.conds],
    nots: [...m.nots],
    examples: [...m.examples],
    refs: [...m.refs],
    hints: new Set(m.hints),
  };
}

export const maxOf = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
export const minOf = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

export function intersectTypes(a: string[] | undefined, b: string[]): string[] {
  if (a === undefined) return [...b];
  const out: string[] = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if (t === 'number' && b.includes('integer')) out.push('integer');
    else if (t === 'integer' && b.includes('number')) out.push('integer');
  }
  return [...new Set(out)];
}

type Merge = (m: Merged, val: JsonValue, node: Obj, ctx: Context, st: State) => void;

/**
 * How each keyword folds into the merged constraints: one entry per keyword the generator understands
 * (annotations and unknown keywords are left out, as a validator ignores them).
 */
const MERGE: Record<string, Merge> = {
  type: (m, val) => {
    const list = (Array.isArray(val) ? val : [val]).filter((t): t is string => typeof t === 'string');
    m.types = intersectTypes(m.types, list);
    if (m.types.length === 0) m.unsat = true;
  },
  const: (m, val) => {
    m.consts.push(val);
  },
  enum: (m, val) => {
    if (Array.isArray(val)) m.enums.push(val);
  },
  minimum: (m, val) => {
    m.minimum = maxOf(m.minimum, num(val));
    m.hints.add('number');
  },
  maximum: (m, val) => {
    m.maximum = minOf(m.maximum, num(val));
    m.hints.add('number');
  },
  exclusiveMinimum: (m, val) => {
    m.exclusiveMinimum = maxOf(m.exclusiveMinimum, num(val));
    m.hints.add('number');
  },
  exclusiveMaximum: (m, val) => {
    m.exclusiveMaximum = minOf(m.exclusiveMaximum, num(val));
    m.hints.add('number');
  },
  multipleOf: (m, val) => {
    if (num(val) !== undefined && (val as number) > 0) m.multipleOf.push(val as number);
    m.hints.add('number');
  },
  minLength: (m, val) => {
    m.minLength = maxOf(m.minLength, num(val));
    m.hints.add('string');
  },
  maxLength: (m, val) => {
    m.maxLength = minOf(m.maxLength, num(val));
    m.hints.add('string');
  },
  pattern: (m, val) => {
    if (typeof val === 'string') m.patterns.push(val);
    m.hints.add('string');
  },
  format: (m, val) => {
    if (typeof val === 'string') m.formats.push(val);
  },
  items: (m, val) => {
    m.items.push(val as SchemaNode);
    m.hints.add('array');
  },
  prefixItems: (m, val) => {
    if (Array.isArray(val)) val.forEach((s, i) => (m.prefixItems[i] ??= []).push(s as SchemaNode));
    m.hints.add('array');
  },
  contains: (m, val) => {
    m.contains.push(val as SchemaNode);
    m.hints.add('array');
  },
  minContains: (m, val) => {
    m.minContains = maxOf(m.minContains, num(val));
  },
  maxContains: (m, val) => {
    m.maxContains = minOf(m.maxContains, num(val));
  },
  minItems: (m, val) => {
    m.minItems = maxOf(m.minItems, num(val));
    m.hints.add('array');
  },
  maxItems: (m, val) => {
    m.maxItems = minOf(m.maxItems, num(val));
    m.hints.add('array');
  },
  uniqueItems: (m, val) => {
    if (val === true) m.uniqueItems = true;
  },
  properties: (m, val) => {
    if (isObj(val))
      for (const k of Object.keys(val)) {
        const list = m.properties.get(k);
        if (list) list.push(val[k] as SchemaNode);
        else m.properties.set(k, [val[k] as SchemaNode]);
      }
    m.hints.add('object');
  },
  patternProperties: (m, val) => {
    if (isObj(val)) for (const k of Object.keys(val)) m.patternProperties.push([k, val[k] as SchemaNode]);
    m.hints.add('object');
  },
  additionalProperties: (m, val, node) => {
    m.additional.push({
      schema: val as SchemaNode,
      props: new Set(isObj(node.properties) ? Object.keys(node.properties) : []),
      patterns: isObj(node.patternProperties) ? Object.keys(node.patternProperties) : [],
    });
    m.hints.add('object');
  },
  propertyNames: (m, val) => {
    m.propertyNames.push(val as SchemaNode);
    m.hints.add('object');
  },
  required: (m, val) => {
    if (Array.isArray(val)) for (const k of val) if (typeof k === 'string' && !m.required.includes(k)) m.required.push(k);
    m.hints.add('object');
  },
  minProperties: (m, val) => {
    m.minProperties = maxOf(m.minProperties, num(val));
    m.hints.add('object');
  },
  maxProperties: (m, val) => {
    m.maxProperties = minOf(m.maxProperties, num(val));
    m.hints.add('object');
  },
  dependentRequired: (m, val) => {
    if (isObj(val)) for (const k of Object.keys(val)) if (Array.isArray(val[k])) m.dependentRequired.push([k, (val[k] as JsonValue[]).filter((x): x is string => typeof x === 'string')]);
  },
  dependentSchemas: (m, val) => {
    if (isObj(val)) for (const k of Object.keys(val)) m.dependentSchemas.push([k, val[k] as SchemaNode]);
  },
  allOf: (m, val, node, ctx, st) => {
    if (Array.isArray(val)) for (const s of val) flatten(ctx, m, s as SchemaNode, st);
  },
  anyOf: (m, val, node) => {
    if (Array.isArray(val)) m.groups.push({ kind: 'anyOf', branches: val as SchemaNode[], discriminator: discriminatorOf(node) });
  },
  oneOf: (m, val, node) => {
    if (Array.isArray(val)) m.groups.push({ kind: 'oneOf', branches: val as SchemaNode[], discriminator: discriminatorOf(node) });
  },
  if: (m, val, node) => {
    m.conds.push({ if: val as SchemaNode, then: has(node, 'then') ? (node.then as SchemaNode) : undefined, else: has(node, 'else') ? (node.else as SchemaNode) : undefined });
  },
  not: (m, val) => {
    m.nots.push(val as SchemaNode);
  },
  examples: (m, val) => {
    if (Array.isArray(val)) m.examples.push(...val);
  },
  default: (m, val) => {
    m.examples.push(val);
  },
  readOnly: (m, val) => {
    if (val === true) m.readOnly = true;
  },
};

/** Fold `node` (following `$ref`s and `allOf`) into `m`. */
export function flatten(ctx: Context, m: Merged, node: SchemaNode, st: State): void {
  if (node === true) return;
  if (node === false || !isObj(node)) {
    m.unsat = true;
    return;
  }
  ctx.steps--;
  if (ctx.steps < 0) {
    m.unsat = true;
    return;
  }
  const ref = own(node, '$ref');
  if (typeof ref === 'string') {
    const open = (st.refs.get(ref) ?? 0) + m.refs.filter((r) => r === ref).length;
    const target = resolveRef(ctx, ref);
    if (target === undefined || open >= MAX_REF_REPEAT) {
      m.unsat = true;
      return;
    }
    m.refs.push(ref);
    flatten(ctx, m, target, st);
  }
  for (const key of Object.keys(node)) {
    const merge = Object.prototype.hasOwnProperty.call(MERGE, key) ? MERGE[key] : undefined;
    merge?.(m, node[key]!, node, ctx, st);
  }
  if (m.types !== undefined && m.types.length === 0) m.unsat = true;
}

export function discriminatorOf(node: Obj): Group['discriminator'] {
  const d = own(node, 'discriminator');
  const name = own(d, 'propertyName');
  if (typeof name !== 'string') return undefined;
  const mapping: Record<string, string> = {};
  const raw = own(d, 'mapping');
  if (isObj(raw)) for (const k of Object.keys(raw)) if (typeof raw[k] === 'string') setOwn(mapping, k, raw[k]);
  return { propertyName: name, mapping };
}

/** The schemas a property `key` of an object must satisfy (properties, matching patternProperties, additionalProperties). */
export function propertySchemas(m: Merged, key: string): SchemaNode[] {
  const out: SchemaNode[] = [...(m.properties.get(key) ?? [])];
  for (const [p, s] of m.patternProperties) if (matches(p, key)) out.push(s);
  for (const a of m.additional) if (!a.props.has(key) && !a.patterns.some((p) => matches(p, key))) out.push(a.schema);
  return out;
}
