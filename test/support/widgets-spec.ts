// A small spec without our vocabulary for the any-spec tests (issue 27): widgets, a collection and item path pair,
// with the security scheme (and, optionally, paging parameters of the list) a test chooses.
export interface WidgetsOptions {
  scheme: Record<string, unknown>;
  /** Query parameters of the list operation and the properties of its answer object (default: a bare array). */
  list?: { parameters: Record<string, unknown>[]; page: Record<string, unknown> };
}

export function widgetsSpec(options: WidgetsOptions): Record<string, unknown> {
  const widget = { $ref: '#/components/schemas/Widget' };
  const listAnswer = options.list ? { type: 'object', properties: options.list.page } : { type: 'array', items: widget };
  return {
    openapi: '3.1.0',
    info: { title: 'Widgets', version: '1.0.0' },
    servers: [{ url: 'https://widgets.example.com/v1' }],
    security: [{ Credential: [] }],
    paths: {
      '/widgets': {
        get: {
          operationId: 'listWidgets',
          parameters: options.list?.parameters ?? [],
          responses: { '200': { description: 'widgets', content: { 'application/json': { schema: listAnswer } } } },
        },
        post: {
          operationId: 'createWidget',
          requestBody: { required: true, content: { 'application/json': { schema: widget } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: widget } } } },
        },
      },
      '/widgets/{widgetId}': {
        parameters: [{ name: 'widgetId', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getWidget', responses: { '200': { description: 'a widget', content: { 'application/json': { schema: widget } } }, '404': { description: 'none' } } },
        delete: { operationId: 'deleteWidget', responses: { '204': { description: 'deleted' }, '404': { description: 'none' } } },
      },
    },
    components: {
      securitySchemes: { Credential: options.scheme },
      schemas: {
        Widget: {
          type: 'object',
          required: ['name'],
          properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 40 }, size: { type: 'integer', minimum: 0, maximum: 100 } },
        },
      },
    },
  };
}
