// The sandbox server's generated half: the route table (routes.ts) and the documents it serves at /openapi
// (documents.ts). The hand-written engine in src/sandbox reads only these two modules and the generated
// validators, so regenerating after a spec change updates the sandbox. Every spec-derived value is written
// with the one encoder (jsValue / jsString / propertyAccess).
import { jsString, jsValue, propertyAccess } from '../../encode/index.js';
import type { ApiModel } from '../../model/ir.js';
import type { EmittedFile } from '../emitted-file.js';
import type { Names } from '../naming.js';
import { resourceRows, routeRow } from './route-table.js';

export interface ServedDocument {
  name: string;
  document: unknown;
}

// The generated module's own declarations of the row types of route-table.ts (generated code cannot import
// from src/); keep the two in step.
const TYPES = `export type ResponseShape =
  | { kind: 'none' }
  | { kind: 'empty' }
  | { kind: 'resource' }
  | { kind: 'wrapped'; key: string }
  | { kind: 'list'; items: string; total: string | null }
  | { kind: 'other'; schema?: string; keys: string[]; constants: Record<string, unknown> };

export interface FieldRule {
  normalize?: 'lowercase';
  unique?: { among: 'active' | 'all'; scope: 'organization' | 'workspace' };
  replace?: 'whole-set';
  null?: 'clear' | 'ignore' | 'rule';
  references?: string;
}

export interface RenameRow { legacy: string; canonical: string; values: Record<string, string> | null; in: 'path' | 'query' | 'body' | 'response'; at: string[] }

export interface ParamRow { name: string; required: boolean; type: string; array: boolean; explode: boolean; default?: unknown }

export interface RouteRow {
  id: string;
  spec: string;
  method: string;
  path: string;
  params: { path: ParamRow[]; query: ParamRow[]; header: ParamRow[] };
  body: { required: boolean; media: string[]; fields: Record<string, FieldRule>; exactlyOneOf: string[]; defaults: Record<string, unknown>; properties: string[] | null } | null;
  auth: string[];
  permissions: string[];
  resource: string | null;
  action: string | null;
  workspaceRequired: boolean;
  pagination: { items: string; pageSize: string; pageToken: string; nextPageToken: string } | null;
  softDelete: { respond: string; repeat: string } | null;
  restore: { noopWhenActive: boolean } | null;
  rules: string[];
  emits: string[];
  aliasOf: string | null;
  aliasRenames: RenameRow[];
  sets: Record<string, unknown> | null;
  renames: { field: string; maxLength: number | null }[] | null;
  resets: string[] | null;
  copiesWith: { flag: string; fields: string[] }[] | null;
  success: { status: number; shape: ResponseShape; media: string | null };
  errors: number[];
  versionItem: { properties: string[]; snapshotInto: string | null } | null;
}

export interface RouteValidators {
  path?: Validator<unknown>;
  query?: Validator<unknown>;
  headers?: Validator<unknown>;
  body?: Validator<unknown>;
  response?: Validator<unknown>;
}

export interface Route extends RouteRow {
  validators: RouteValidators;
}

export type IdFormat = { kind: 'ulid' } | { kind: 'alnum'; length: number } | { kind: 'token'; length: number };

export interface ResourceRow {
  name: string;
  schema: string;
  id: string;
  idFormat: IdFormat;
  namePrefix: string | null;
  writeOnly: string[][];
  readOnly: string[];
  scope: string;
  properties: string[];
  defaults: Record<string, unknown>;
  lifecycle: { field: string | null; deleted: string | null; hidden: string[]; frozen: { field: string; equals: unknown }[] } | null;
  versioned: { tracked: string[]; history: string | null; changeTypes: string[] } | null;
  fields: Record<string, FieldRule & { provenance?: unknown }>;
}

export interface EventHandlerRow { on: string; rule: string }
`;

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
    return `{ ...(${jsValue(row)} as RouteRow), validators: { ${v.join(', ')} } }`;
  });
  const routesModule = [
    `import * as validators from '../client/validators.js';`,
    `import type { Validator } from '../client/validators.js';`,
    '',
    TYPES,
    `/** Path prefix of the API (the path of the first server URL). */`,
    `export const basePath: string = ${jsString(basePathOf(model))};`,
    `/** The header that selects the workspace, when the spec declares one. */`,
    `export const workspaceHeader: string | null = ${model.scopeHeaders.workspace === undefined ? 'null' : jsString(model.scopeHeaders.workspace)};`,
    `export const resources: readonly ResourceRow[] = ${jsValue(resourceRows(model))} as ResourceRow[];`,
    `export const handlers: readonly EventHandlerRow[] = ${jsValue(model.handlers.map((h) => ({ on: h.on, rule: h.rule })))};`,
    `export const routes: readonly Route[] = [\n${routes.join(',\n')}\n];`,
    '',
  ].join('\n');
  const served = documents.map((d) => ({ name: d.name, document: d.document }));
  const documentsModule = [
    `/** The bundled documents of the catalog, in catalog order, as the sandbox serves them at /openapi. */`,
    `export const documents: readonly { name: string; document: unknown }[] = JSON.parse(${jsString(JSON.stringify(served))});`,
    '',
  ].join('\n');
  return [
    { path: 'sandbox/routes.ts', kind: 'module', contents: routesModule },
    { path: 'sandbox/documents.ts', kind: 'module', contents: documentsModule },
  ];
}
