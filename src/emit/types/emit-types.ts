// The types module: a type per named schema (plus its request view when it differs), enum value lists,
// and for every operation its parameter, body and response types.
import { jsDoc, jsValue, propertyKey } from '../../encode/index.js';
import type { ApiModel, Operation, Parameter, SchemaNode } from '../../model/ir.js';
import { preferredMedia } from '../../model/media.js';
import type { EmittedFile } from '../emitted-file.js';
import type { Names } from '../naming.js';
import { docFor, tsType, type TypeContext, type View } from './ts-type.js';
import { defName, schemasWithTwoViews } from './views.js';

export function emitTypes(model: ApiModel, names: Names, packageDir = 'client'): EmittedFile {
  const twoViews = schemasWithTwoViews(model);
  const context = (view: View): TypeContext => ({
    view,
    refName(ref) {
      const name = defName(ref);
      if (name === undefined || !Object.prototype.hasOwnProperty.call(model.schemas, name)) return 'unknown';
      return view === 'write' && twoViews.has(name) ? names.schemaInputType(name) : names.schemaType(name);
    },
  });
  const read = context('read');
  const write = context('write');
  const out: string[] = [];

  for (const [irName, named] of Object.entries(model.schemas)) {
    const doc = docFor(named.schema, '');
    out.push(`${doc}export type ${names.schemaType(irName)} = ${tsType(named.schema, read)};`);
    if (twoViews.has(irName)) {
      out.push(`${jsDoc(`Request view of ${names.schemaType(irName)}: server-set (readOnly) properties left out.`)}export type ${names.schemaInputType(irName)} = ${tsType(named.schema, write)};`);
    }
    out.push(...enumLists(irName, named.schema, names, read));
  }

  for (const op of model.operations) out.push(...operationTypes(op, names, read, write));
  return { path: `${packageDir}/types.ts`, kind: 'module', contents: `${out.join('\n\n')}\n` };
}

function enumLists(irName: string, schema: SchemaNode, names: Names, read: TypeContext): string[] {
  if (typeof schema !== 'object') return [];
  const lists: string[] = [];
  if (Array.isArray(schema.enum)) {
    lists.push(`export const ${names.enumValues(irName)}: readonly ${names.schemaType(irName)}[] = ${jsValue(schema.enum)};`);
  }
  const props = schema.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    // `Thing["status"]` names the property's type only when the schema's type is a plain object type that has
    // the property; a nullable or composed schema (`{...} | null`, `A & (B | C)`) or a writeOnly property (not
    // in the response view) gets the property's own type instead.
    const plainObject = isPlainObjectSchema(schema);
    for (const [prop, sub] of Object.entries(props)) {
      if (sub && typeof sub === 'object' && !Array.isArray(sub) && Array.isArray(sub.enum)) {
        const element = plainObject && sub.writeOnly !== true ? `${names.schemaType(irName)}[${jsValue(prop)}]` : `(${tsType(sub, read)})`;
        lists.push(`export const ${names.enumValues(irName, prop)}: readonly ${element}[] = ${jsValue(sub.enum)};`);
      }
    }
  }
  return lists;
}

/** A schema whose TypeScript type is one object literal type (no null, no composition, no reference). */
function isPlainObjectSchema(schema: { [keyword: string]: unknown }): boolean {
  if (['$ref', 'allOf', 'anyOf', 'oneOf', 'enum', 'const'].some((k) => k in schema)) return false;
  const types = schema.type;
  return types === undefined || (Array.isArray(types) && types.length === 1 && types[0] === 'object');
}

function operationTypes(op: Operation, names: Names, read: TypeContext, write: TypeContext): string[] {
  const out: string[] = [];
  const header = (what: string) => jsDoc(`${what} of ${op.method.toUpperCase()} ${op.path} (${op.id}).`);
  const paramsType = (params: Parameter[]): string =>
    `{\n${params.map((p) => `${docFor({ ...(p.description ? { description: p.description } : {}), ...(p.deprecated ? { deprecated: true } : {}) }, '  ')}  ${propertyKey(p.name)}${p.required ? '' : '?'}: ${tsType(p.schema, write, '  ')};`).join('\n')}\n}`;
  const parts: ['PathParams' | 'Query' | 'Headers', Parameter[]][] = [
    ['PathParams', op.parameters.path],
    ['Query', op.parameters.query],
    ['Headers', op.parameters.header],
  ];
  for (const [part, params] of parts) {
    if (params.length > 0) out.push(`${header(part === 'PathParams' ? 'Path parameters' : part === 'Query' ? 'Query parameters' : 'Header parameters')}export type ${names.operationType(op.id, part)} = ${paramsType(params)};`);
  }
  if (op.requestBody) {
    const media = preferredMedia(op.requestBody.content);
    out.push(`${header('Request body')}export type ${names.operationType(op.id, 'Body')} = ${media ? tsType(media.schema, write) : 'unknown'};`);
  }
  const success: string[] = [];
  for (const response of op.responses) {
    // A response may come in several media types (YAML text by default, JSON on request): its type is the union.
    const types = [...new Set(response.content.map((c) => tsType(c.schema, read)))];
    const type = types.length === 0 ? 'undefined' : types.length === 1 ? types[0]! : types.map((t) => `(${t})`).join(' | ');
    const name = names.operationType(op.id, 'Response', response.status);
    out.push(`${jsDoc(`${response.status}: ${response.description}`)}export type ${name} = ${type};`);
    if (/^2/.test(response.status)) success.push(name);
  }
  // The 2xx union that is exactly the schema of its name (naming.ts) is that schema's declaration already.
  if (names.operationResponseSchema(op.id) === undefined) {
    out.push(`${header('Successful response body')}export type ${names.operationType(op.id, 'Response')} = ${success.length > 0 ? success.join(' | ') : 'unknown'};`);
  }
  return out;
}
