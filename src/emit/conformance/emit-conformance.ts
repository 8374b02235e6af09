// The conformance suite's generated half: what the runner (src/conformance) checks, derived from the model.
// It re-exports the route table (operations with their semantics and validators) and adds the JSON Schemas
// the runner builds valid and just-invalid requests from. Spec-derived values go through the one encoder.
import { jsString } from '../../encode/index.js';
import type { ApiModel, Parameter, SchemaNode } from '../../model/ir.js';
import { preferredMedia } from '../../model/media.js';
import type { EmittedFile } from '../emitted-file.js';
import { setOwn } from '../../data/own-property.js';

interface OperationSchemas {
  path: Record<string, SchemaNode>;
  query: Record<string, SchemaNode>;
  header: Record<string, SchemaNode>;
  body: SchemaNode | null;
}

function bySchema(params: Parameter[]): Record<string, SchemaNode> {
  const out: Record<string, SchemaNode> = {};
  for (const p of params) setOwn(out, p.name, p.schema);
  return out;
}

export function emitConformance(model: ApiModel): EmittedFile[] {
  const defs: Record<string, SchemaNode> = {};
  for (const [name, schema] of Object.entries(model.schemas)) setOwn(defs, name, schema.schema);
  const operations: Record<string, OperationSchemas> = {};
  for (const op of model.operations) {
    const body = op.requestBody ? preferredMedia(op.requestBody.content) : undefined;
    setOwn(operations, op.id, { path: bySchema(op.parameters.path), query: bySchema(op.parameters.query), header: bySchema(op.parameters.header), body: body?.schema ?? null });
  }
  // The schemas are large; one JSON string parsed at load keeps the module small to compile and format.
  const data = JSON.stringify({ defs, operations });
  const contents = [
    `export { routes, resources, handlers, basePath, workspaceHeader } from '../sandbox/routes.js';`,
    `export type { Route, ResourceRow } from '../sandbox/routes.js';`,
    '',
    `export interface OperationSchemas {`,
    `  path: Record<string, unknown>;`,
    `  query: Record<string, unknown>;`,
    `  header: Record<string, unknown>;`,
    `  body: unknown;`,
    `}`,
    '',
    `const data: { defs: Record<string, unknown>; operations: Record<string, OperationSchemas> } = JSON.parse(${jsString(data)});`,
    `/** The model's named schemas (JSON Schema 2020-12; refs are \`#/$defs/<name>\`). */`,
    `export const defs: Record<string, unknown> = data.defs;`,
    `/** Per operation id: the schemas of its path, query and header parameters and of its JSON body. */`,
    `export const schemas: Record<string, OperationSchemas> = data.operations;`,
    '',
  ].join('\n');
  return [{ path: 'conformance/suite.ts', kind: 'module', contents }];
}
