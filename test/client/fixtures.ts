// Small hand-built models for the client emitter tests (no YAML, no loader: the IR is the input).
import type { ApiModel, Operation, OperationResponse, Parameter, ParameterLocation, RequestBody, SchemaNode } from '../../src/model/ir.js';

export function param(name: string, location: ParameterLocation, extra: Partial<Parameter> = {}): Parameter {
  const defaults = location === 'query' || location === 'cookie' ? { style: 'form', explode: true } : { style: 'simple', explode: false };
  return { name, in: location, required: location === 'path', deprecated: false, schema: { type: 'string' }, provenance: { source: 'seed' }, ...defaults, ...extra };
}

export function json(status: string, schema: SchemaNode = { type: 'object' }): OperationResponse {
  return { status, description: 'ok', content: [{ mediaType: 'application/json', schema, examples: [] }], headers: [] };
}

export function body(mediaType: string, required = true, schema: SchemaNode = { type: 'object' }): RequestBody {
  return { required, content: [{ mediaType, schema, examples: [] }], provenance: { source: 'seed' }, fields: {}, semantics: {} };
}

export function op(id: string, method: Operation['method'], path: string, extra: Partial<Operation> = {}): Operation {
  const { parameters, ...rest } = extra;
  return {
    id,
    spec: 'test',
    method,
    path,
    group: 'tags',
    deprecated: false,
    parameters: { path: [], query: [], header: [], cookie: [], ...parameters },
    responses: [json('200')],
    security: [['ApiKeyAuth']],
    provenance: { source: 'seed' },
    semantics: { permissions: [], workspaceRequired: false, rules: [], emits: [] },
    pointer: '',
    ...rest,
  };
}

export function model(operations: Operation[], extra: Partial<ApiModel> = {}): ApiModel {
  return {
    title: 'Test API',
    specHash: '0',
    catalog: [],
    schemas: {},
    operations,
    securitySchemes: { ApiKeyAuth: { type: 'apiKey', name: 'X-API-Key', in: 'header' } },
    handlers: [],
    scopeHeaders: { workspace: 'X-Service-Workspace-Id' },
    ...extra,
  };
}

const workspaceHeader = param('X-Service-Workspace-Id', 'header', { scope: 'workspace' });

/** The main fixture: a paginated GET, a PATCH with body and workspace header, a POST, a DELETE, public catalog ops. */
export function tagsModel(): ApiModel {
  return model([
    op('listFolderTags', 'get', '/folders/{folder_id}/tags', {
      summary: 'List tags of a folder.',
      parameters: {
        path: [param('folder_id', 'path', { description: 'The folder.' })],
        query: [
          param('page_size', 'query', { schema: { type: 'integer' } }),
          param('page_token', 'query'),
          param('ids', 'query', { schema: { type: 'array', items: { type: 'string' } } }),
          param('colors', 'query', { explode: false, schema: { type: 'array', items: { type: 'string' } } }),
          param('piped', 'query', { style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } }),
          param('filter', 'query', { style: 'deepObject', schema: { type: 'object' } }),
        ],
        header: [],
        cookie: [],
      },
      responses: [json('200', { type: 'object', properties: { tags: { type: 'array' }, next_page_token: { type: ['string', 'null'] } } })],
      semantics: {
        permissions: [],
        workspaceRequired: false,
        rules: [],
        emits: [],
        pagination: { items: 'tags', pageSize: 'page_size', pageToken: 'page_token', nextPageToken: 'next_page_token' },
      },
    }),
    op('createTag', 'post', '/tags', {
      requestBody: body('application/json', true, { type: 'object' }),
      responses: [json('201')],
    }),
    op('updateTag', 'patch', '/tags/{tag_id}', {
      parameters: { path: [param('tag_id', 'path')], query: [], header: [workspaceHeader], cookie: [] },
      requestBody: body('application/json', true, { type: 'object' }),
    }),
    op('deleteTag', 'delete', '/tags/{tag_id}', {
      parameters: { path: [param('tag_id', 'path')], query: [], header: [], cookie: [] },
      responses: [{ status: '204', description: 'gone', content: [], headers: [] }],
    }),
    op('listSpecs', 'get', '/openapi', { group: 'catalog', security: [] }),
    op('getSpec', 'get', '/openapi/{spec_name}', {
      group: 'catalog',
      security: [],
      parameters: { path: [param('spec_name', 'path')], query: [], header: [], cookie: [] },
      responses: [
        {
          status: '200',
          description: 'the document',
          content: [
            { mediaType: 'application/yaml', schema: { type: 'string' }, examples: [] },
            { mediaType: 'application/json', schema: { type: 'object' }, examples: [] },
          ],
          headers: [],
        },
      ],
    }),
    op('submitForm', 'post', '/forms', {
      group: 'forms',
      requestBody: body('application/x-www-form-urlencoded', false, { type: 'object' }),
    }),
    op('uploadFile', 'post', '/files', {
      group: 'forms',
      requestBody: body('multipart/form-data', true, { type: 'object' }),
    }),
    op('putNote', 'put', '/notes', {
      group: 'forms',
      requestBody: body('text/plain', true, { type: 'string' }),
      responses: [{ status: '200', description: 'text', content: [{ mediaType: 'text/plain', schema: { type: 'string' }, examples: [] }], headers: [] }],
    }),
  ]);
}
