// The sandbox server's generated half: the route table (routes.ts) and the documents it serves at /openapi
// (documents.ts). The hand-written engine in src/sandbox reads only these two modules and the generated
// validators, so regenerating after a spec change updates the sandbox. Every spec-derived value is written
// with the one encoder (jsValue / jsString / propertyAccess). The rows' types are the route-table contract,
// emitted beside them verbatim (sandbox/route-table.ts); the data is declared with those types, never cast, so
// a row the contract does not describe fails the type check of the generated module.
import { jsString, jsValue, propertyAccess, propertyKey } from '../../encode/index.js';
import type { ApiModel } from '../../model/ir.js';
import type { EmittedFile } from '../emitted-file.js';
import type { Names } from '../naming.js';
import { routeTableContractSource } from './contract-source.js';
import { resourceRows, routeRow } from './route-table.js';

export interface ServedDocument {
  name: string;
  document: unknown;
}

/** Path part of the first server URL (`https://host/v1` -> `/v1`), where the API's paths are mounted. */
function basePathOf(model: ApiModel): string {
  const url = model.catalog.flatMap((entry) => entry.servers)[0];
  if (url === undefined) return '';
  try {
    const path = new URL(url, 'http://placeholder.invalid').pathname;
    return path.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

export function emitServer(model: ApiModel, names: Names, documents: readonly ServedDocument[]): EmittedFile[] {
  const resources = resourceRows(model);
  const routes = model.operations.map((op) => {
    const row = routeRow(model, op);
    const v: string[] = [];
    const ref = (key: string, part: 'PathParams' | 'Query' | 'Headers' | 'Body' | 'Response', status?: string): void => {
      v.push(`${key}: ${propertyAccess('validators', names.operationValidator(op.id, part, status))}`);
    };
    if (op.parameters.path.length > 0) ref('path', 'PathParams');
    if (op.parameters.query.length > 0) ref('query', 'Query');
    if (op.parameters.header.length > 0) ref('headers', 'Headers');
    if (op.requestBody && op.requestBody.content.length > 0) ref('body', 'Body');
    const ok = op.responses.find((r) => r.status === String(row.success.status));
    if (ok && ok.content.length > 0) ref('response', 'Response', ok.status);
    // One object literal (the row's properties and the validators), so every property meets the contract's check.
    const properties = Object.entries(row).map(([key, value]) => `${propertyKey(key)}: ${jsValue(value)}`);
    return `{ ${properties.join(', ')}, validators: { ${v.join(', ')} } }`;
  });
  const routesModule = [
    `import * as validators from '../client/validators.js';`,
    `import type { EventHandlerRow, ResourceRow, Route } from './route-table.js';`,
    `export type * from './route-table.js';`,
    '',
    `/** Path prefix of the API (the path of the first server URL). */`,
    `export const basePath: string = ${jsString(basePathOf(model))};`,
    `/** The header that selects the workspace, when the spec declares one. */`,
    `export const workspaceHeader: string | null = ${model.scopeHeaders.workspace === undefined ? 'null' : jsString(model.scopeHeaders.workspace)};`,
    `export const resources: readonly ResourceRow[] = ${jsValue(resources)};`,
    `export const handlers: readonly EventHandlerRow[] = ${jsValue(model.handlers.map((h) => ({ on: h.on, rule: h.rule })))};`,
    `export const routes: readonly Route[] = [\n${routes.join(',\n')}\n];`,
    '',
  ].join('\n');
  // The generated type of each resource's records, by resource name: what the rules read from and write to the store.
  // Type names are derived identifiers (the naming module's), never the spec's text.
  const resourceTypes = [
    `import type * as types from '../client/types.js';`,
    '',
    `/** Each resource of the route table (x-resource), by name, with the generated type of its records. */`,
    `export interface ResourceTypes {`,
    ...resources.map((r) => `  ${propertyKey(r.name)}: types.${names.schemaType(r.schema)};`),
    `}`,
    '',
  ].join('\n');
  // The generated types of each operation's request body and query, by operation id: what a rule reads from a
  // validated request (src/sandbox/engine/request-parts.ts). Only operations that take the part are listed.
  const partTypes = (name: string, part: 'Body' | 'Query', takes: (op: ApiModel['operations'][number]) => boolean, what: string): string[] => [
    `/** Each operation that takes ${what}, by operationId, with its generated type. */`,
    `export interface ${name} {`,
    ...model.operations.filter(takes).map((op) => `  ${propertyKey(op.id)}: types.${names.operationType(op.id, part)};`),
    `}`,
  ];
  const operationParts = [
    `import type * as types from '../client/types.js';`,
    '',
    ...partTypes('OperationBodies', 'Body', (op) => op.requestBody !== undefined, 'a request body'),
    '',
    ...partTypes('OperationQueries', 'Query', (op) => op.parameters.query.length > 0, 'query parameters'),
    '',
  ].join('\n');
  const served = documents.map((d) => ({ name: d.name, document: d.document }));
  const documentsModule = [
    `/** The bundled documents of the catalog, in catalog order, as the sandbox serves them at /openapi. */`,
    `export const documents: readonly { name: string; document: unknown }[] = JSON.parse(${jsString(JSON.stringify(served))});`,
    '',
  ].join('\n');
  return [
    { path: 'sandbox/route-table.ts', kind: 'module', contents: routeTableContractSource() },
    { path: 'sandbox/routes.ts', kind: 'module', contents: routesModule },
    { path: 'sandbox/resource-types.ts', kind: 'module', contents: resourceTypes },
    { path: 'sandbox/operation-parts.ts', kind: 'module', contents: operationParts },
    { path: 'sandbox/documents.ts', kind: 'module', contents: documentsModule },
  ];
}
