// JSON Schema (IR form) -> TypeScript type expression. `view` decides which properties a context sees:
// requests leave out readOnly properties, responses leave out writeOnly ones.
import { jsDoc, jsString, propertyKey } from '../../encode/index.js';
import type { JsonValue, SchemaNode } from '../../model/ir.js';

export type View = 'read' | 'write';

export interface TypeContext {
  view: View;
  /** Type name for a `$ref` to a named schema in this view. */
  refName(ref: string, view: View): string;
}

type Obj = { [k: string]: JsonValue };

export function tsType(schema: SchemaNode, ctx: TypeContext, indent = ''): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  const s = schema as Obj;
  const parts: string[] = [];
  if (typeof s.$ref === 'string') parts.push(ctx.refName(s.$ref, ctx.view));
  if ('const' in s) parts.push(literal(s.const!));
  else if (Array.isArray(s.enum)) parts.push(s.enum.length === 0 ? 'never' : s.enum.map(literal).join(' | '));
  else {
    const own = ownShape(s, ctx, indent);
    if (own !== undefined) parts.push(own);
  }
  for (const [key, join] of [
    ['allOf', ' & '],
    ['anyOf', ' | '],
    ['oneOf', ' | '],
  ] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) parts.push(`(${list.map((x) => tsType(x as SchemaNode, ctx, indent)).join(join)})`);
  }
  if (parts.length === 0) return 'unknown';
  return parts.length === 1 ? parts[0]! : parts.map((p) => (/[|&]/.test(p) && !p.startsWith('(') ? `(${p})` : p)).join(' & ');
}

/** The type from `type` and the structural keywords, or undefined when the schema says nothing about the shape. */
function ownShape(s: Obj, ctx: TypeContext, indent: string): string | undefined {
  const types = Array.isArray(s.type) ? (s.type as string[]) : undefined;
  const objectish = s.properties !== undefined || s.additionalProperties !== undefined || s.patternProperties !== undefined;
  const arrayish = s.items !== undefined || s.prefixItems !== undefined;
  const list = types ?? (objectish ? ['object'] : arrayish ? ['array'] : undefined);
  if (list === undefined) return undefined;
  const rendered = [...new Set(list.map((t) => primitive(t, s, ctx, indent)))];
  return rendered.join(' | ');
}

function primitive(type: string, s: Obj, ctx: TypeContext, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(s, ctx, indent);
    case 'object':
      return objectType(s, ctx, indent);
    default:
      return 'unknown';
  }
}

function arrayType(s: Obj, ctx: TypeContext, indent: string): string {
  const rest = s.items === undefined ? 'unknown' : tsType(s.items as SchemaNode, ctx, indent);
  if (Array.isArray(s.prefixItems)) {
    const head = s.prefixItems.map((x) => tsType(x as SchemaNode, ctx, indent));
    return s.items === false ? `[${head.map((h) => `${h}?`).join(', ')}]` : `[${[...head.map((h) => `${h}?`), `...${wrap(rest)}[]`].join(', ')}]`;
  }
  return `${wrap(rest)}[]`;
}

function objectType(s: Obj, ctx: TypeContext, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const lines: string[] = [];
  const props = (s.properties ?? {}) as Obj;
  for (const key of Object.keys(props)) {
    const prop = props[key] as SchemaNode;
    if (typeof prop === 'object' && prop !== null) {
      if (ctx.view === 'write' && prop.readOnly === true) continue;
      if (ctx.view === 'read' && prop.writeOnly === true) continue;
    }
    lines.push(docFor(prop, inner) + `${inner}${propertyKey(key)}${required.has(key) ? '' : '?'}: ${tsType(prop, ctx, inner)};`);
  }
  const extra = s.additionalProperties;
  const hasPatterns = s.patternProperties !== undefined;
  if (extra !== false && (extra !== undefined || hasPatterns)) {
    // A typed index signature must admit every declared property's type, so it is only precise for pure maps.
    const valueType = Object.keys(props).length === 0 && !hasPatterns && extra !== true && extra !== undefined ? tsType(extra as SchemaNode, ctx, inner) : 'unknown';
    lines.push(`${inner}[key: string]: ${valueType};`);
  }
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : '{ [key: string]: unknown }';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

export function docFor(schema: SchemaNode, indent: string): string {
  if (typeof schema !== 'object' || schema === null) return '';
  const tags: string[] = [];
  if (schema.deprecated === true) tags.push('@deprecated');
  if (schema.readOnly === true) tags.push('@readonly Set by the server.');
  if (schema.writeOnly === true) tags.push('@writeonly Never returned by the server.');
  const description = typeof schema.description === 'string' ? schema.description : typeof schema.title === 'string' ? schema.title : undefined;
  const doc = jsDoc(description, tags);
  return doc === '' ? '' : doc.split('\n').filter((l) => l !== '').map((l) => `${indent}${l}`).join('\n') + '\n';
}

export function literal(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return jsString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return 'unknown';
}

function wrap(type: string): string {
  return /^[\w.$"]+$|^\{[\s\S]*\}$|^\[[\s\S]*\]$/.test(type) && !type.includes('|') ? type : `(${type})`;
}
