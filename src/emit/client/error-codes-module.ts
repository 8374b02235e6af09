// `client/runtime/error-codes.ts`: the API's error codes, the union `ApiError.code` is typed with. They are the
// string `enum` of the `code` property of every error answer's JSON schema, at the top (`{ code }`) or inside an
// envelope property (`{ error: { code } }`, this API's shape), references followed. An API whose error schemas
// list no codes gets `string` (and no run-time list), so nothing is claimed that the spec does not say.
import { jsString } from '../../encode/index.js';
import type { ApiModel, SchemaNode } from '../../model/ir.js';

type SchemaObject = { [keyword: string]: unknown };

function deref(model: ApiModel, node: unknown, depth = 0): SchemaObject | undefined {
  if (typeof node !== 'object' || node === null || depth > 16) return undefined;
  const ref = (node as SchemaObject)['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const name = ref.slice('#/$defs/'.length);
    const target = Object.prototype.hasOwnProperty.call(model.schemas, name) ? model.schemas[name]?.schema : undefined;
    return deref(model, target, depth + 1);
  }
  return node as SchemaObject;
}

function property(model: ApiModel, schema: SchemaObject | undefined, name: string): SchemaObject | undefined {
  const properties = schema?.['properties'];
  if (typeof properties !== 'object' || properties === null || !Object.prototype.hasOwnProperty.call(properties, name)) return undefined;
  return deref(model, (properties as SchemaObject)[name]);
}

function codesOf(model: ApiModel, node: SchemaNode): string[] {
  const schema = deref(model, node);
  const direct = property(model, schema, 'code');
  const code = direct ?? property(model, property(model, schema, 'error'), 'code');
  const values = code?.['enum'];
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
}

/** The error codes the spec's non-2xx JSON answers declare, in first-seen order. */
export function errorCodes(model: ApiModel): string[] {
  const codes = new Set<string>();
  for (const op of model.operations) {
    for (const response of op.responses) {
      if (/^2/.test(response.status)) continue;
      for (const media of response.content) for (const code of codesOf(model, media.schema)) codes.add(code);
    }
  }
  return [...codes];
}

export function errorCodesModule(model: ApiModel): string {
  const codes = errorCodes(model);
  const header = '// The error codes the API declares (the `code` enum of its error answers), generated from the spec.\n';
  if (codes.length === 0) {
    return `${header}\n/** The spec lists no error codes: any string. */\nexport type ApiErrorCode = string;\n\nexport const API_ERROR_CODES: readonly string[] | undefined = undefined;\n`;
  }
  const list = codes.map(jsString);
  return (
    `${header}\n/** The \`code\` values the API's error answers declare. */\nexport type ApiErrorCode = ${list.join(' | ')};\n\n` +
    `/** The same codes as a value, to recognise them at run time. */\nexport const API_ERROR_CODES: readonly string[] | undefined = [${list.join(', ')}];\n`
  );
}
