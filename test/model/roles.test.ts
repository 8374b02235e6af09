// x-field-role and x-list-query: the model reads them into fields and parameters, the route table gathers them by
// role (the engine's only view of them), and a wrong one is a spec error with the spec name and JSON pointer.
import { describe, expect, it } from 'vitest';
import { SpecError } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { resourceRows, routeRow } from '../../src/emit/server/route-table.js';
import { doc, ok, openapi } from '../support/docs.js';

const prop = (role?: unknown, extra: Record<string, unknown> = {}) => ({ type: 'string', ...extra, ...(role === undefined ? {} : { 'x-field-role': role }) });

/** A resource whose server fields have names of their own (born, touched, ...), and a versioned history. */
const gadget = (properties: Record<string, unknown> = {}) => ({
  'x-provenance': 'seed',
  'x-resource': { name: 'gadget', id: 'id', scope: 'organization' },
  'x-versioned': { tracked: ['label'], history: 'listGadgetVersions' },
  type: 'object',
  properties: {
    id: prop(),
    handle: prop('resource-name', { pattern: '^gizmos/[a-z]{8}$' }),
    label: prop(),
    born: prop('created-at'),
    touched: prop('updated-at'),
    modified: prop('updated-at'),
    author: prop('created-by'),
    editor: prop('updated-by'),
    live: { type: 'object', 'x-field-role': 'current-version' },
    shipped: { type: 'boolean', 'x-field-role': 'builtin-flag' },
    labels: { type: 'array', items: { type: 'string' }, 'x-field-role': 'tags' },
    ...properties,
  },
});
const gadgetVersion = { 'x-provenance': 'seed', type: 'object', properties: { ulid: prop('version-id'), number: { type: 'integer', 'x-field-role': 'version-number' }, how: prop('change-type'), from: prop('reverted-from'), stamped: prop('created-at'), saver: prop('created-by') } };
/** A version reference (the schema a current-version property refers to), by default with all three reference roles. */
const gadgetRef = (roles: string[] = ['version-id', 'version-number', 'change-type']) => ({ 'x-provenance': 'seed', type: 'object', properties: Object.fromEntries(roles.map((role, i) => [`k${i}`, prop(role)])) });
const NO_ROLES = { resourceName: null, createdAt: [], updatedAt: [], createdBy: [], updatedBy: [], currentVersion: null, builtinFlag: null, tags: null, versionId: null, versionNumber: null, changeType: null, revertedFrom: null };

const param = (name: string, role?: unknown, extra: Record<string, unknown> = {}) => ({ name, in: 'query', schema: { type: 'string' }, ...extra, ...(role === undefined ? {} : { 'x-list-query': role }) });
const list = (parameters: unknown[], action = 'list') => ({
  '/gadgets': {
    get: { operationId: 'listGadgets', 'x-provenance': 'seed', 'x-operation': { resource: 'gadget', action }, parameters, responses: ok({ type: 'object', properties: { gadgets: { type: 'array', items: { $ref: '#/components/schemas/Gadget' } } } }) },
  },
  '/gadgets/{id}/versions': {
    get: {
      operationId: 'listGadgetVersions',
      'x-provenance': 'seed',
      'x-operation': { resource: 'gadget', action: 'versions' },
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: ok({ type: 'object', properties: { versions: { type: 'array', items: { $ref: '#/components/schemas/GadgetVersion' } } } }),
    },
  },
});
const LIST_PARAMS = [param('sort', 'order-by', { schema: { type: 'string', default: '-born' } }), param('where', 'filter'), param('labelled', 'tag-filter', { schema: { type: 'array', items: { type: 'string' } } }), param('with_shipped', 'include-builtin', { schema: { type: 'boolean' } }), param('color')];

function model(paths: Record<string, unknown>, schemas: Record<string, unknown>) {
  return buildModel([doc('gadgets', openapi(paths, schemas))], { policy: 'strict' });
}

function strictError(paths: Record<string, unknown>, schemas: Record<string, unknown>): SpecError {
  try {
    model(paths, schemas);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return error as SpecError;
  }
  throw new Error('expected the model to refuse the document');
}

describe('x-field-role and x-list-query', () => {
  it('reads roles into the model and gathers them by role in the route table, whatever the fields are called', () => {
    const m = model(list(LIST_PARAMS), { Gadget: gadget(), GadgetVersion: gadgetVersion });
    expect(m.schemas.Gadget!.fields.born!.role).toBe('created-at');
    expect(m.schemas.Gadget!.fields.label!.role).toBeUndefined();
    const [row] = resourceRows(m);
    expect(row!.roles).toEqual({ ...NO_ROLES, resourceName: 'handle', createdAt: ['born'], updatedAt: ['touched', 'modified'], createdBy: ['author'], updatedBy: ['editor'], currentVersion: 'live', builtinFlag: 'shipped', tags: 'labels' });
    // The collection of its names comes from the resource-name property's pattern.
    expect(row!.namePrefix).toBe('gizmos');
    // A version is stamped as its item schema says (the history listing's items).
    expect(row!.versioned!.versionRoles).toEqual({ ...NO_ROLES, createdAt: ['stamped'], createdBy: ['saver'], versionId: 'ulid', versionNumber: 'number', changeType: 'how', revertedFrom: 'from' });
    // Without a version reference schema (the current-version property is a plain object), references take the item's keys.
    expect(row!.versioned!.referenceRoles).toEqual(row!.versioned!.versionRoles);
    // Roles are not field rules: the engine reads them only through `roles`.
    expect(row!.fields).toEqual({});
    const query = routeRow(m, m.operations.find((o) => o.id === 'listGadgets')!).params.query;
    expect(query.map((p) => [p.name, p.listQuery])).toEqual([['sort', 'order-by'], ['where', 'filter'], ['labelled', 'tag-filter'], ['with_shipped', 'include-builtin'], ['color', undefined]]);
  });

  it('gives a resource without roles empty ones', () => {
    const plain = { 'x-provenance': 'seed', 'x-resource': { name: 'gadget', id: 'id', scope: 'organization' }, type: 'object', properties: { id: prop(), created_at: prop() } };
    const [row] = resourceRows(model(list([]), { Gadget: plain, GadgetVersion: gadgetVersion }));
    expect(row!.roles).toEqual(NO_ROLES);
  });

  it('builds references to versions by the roles of the schema the current-version property refers to', () => {
    const live = { 'x-field-role': 'current-version', oneOf: [{ $ref: '#/components/schemas/GadgetRef' }, { type: 'null' }] };
    const [row] = resourceRows(model(list([]), { Gadget: gadget({ live }), GadgetVersion: gadgetVersion, GadgetRef: gadgetRef() }));
    expect(row!.versioned!.referenceRoles).toEqual({ ...NO_ROLES, versionId: 'k0', versionNumber: 'k1', changeType: 'k2' });
  });

  const versions = { GadgetVersion: gadgetVersion };
  it.each([
    ['an unknown field role', list([]), { Gadget: gadget({ label: prop('created-when') }), ...versions }, /must be one of resource-name, created-at, updated-at/, '#/components/schemas/Gadget/properties/label/x-field-role'],
    ['a field role that is not a string', list([]), { Gadget: gadget({ label: prop(['tags']) }), ...versions }, /must be one of/, '#/components/schemas/Gadget/properties/label/x-field-role'],
    ['a second current-version property', list([]), { Gadget: gadget({ spare: prop('current-version') }), ...versions }, /"live" already plays current-version/, '#/components/schemas/Gadget/properties/spare/x-field-role'],
    ['a second resource-name property', list([]), { Gadget: gadget({ spare: prop('resource-name') }), ...versions }, /"handle" already plays resource-name/, '#/components/schemas/Gadget/properties/spare/x-field-role'],
    ['a second tags property', list([]), { Gadget: gadget({ spare: prop('tags') }), ...versions }, /"labels" already plays tags/, '#/components/schemas/Gadget/properties/spare/x-field-role'],
    ['a second version-id property', list([]), { Gadget: gadget(), GadgetVersion: { ...gadgetVersion, properties: { ...gadgetVersion.properties, spare: prop('version-id') } } }, /"ulid" already plays version-id/, '#/components/schemas/GadgetVersion/properties/spare/x-field-role'],
    ['a version item without a version-id property', list([]), { Gadget: gadget(), GadgetVersion: { ...gadgetVersion, properties: { stamped: prop('created-at') } } }, /items of listGadgetVersions \(schema "GadgetVersion"\) have no property with x-field-role version-id/, '#/components/schemas/Gadget/x-versioned/history'],
    ['a version reference without a change-type property', list([]), { Gadget: gadget({ live: { $ref: '#/components/schemas/GadgetRef', 'x-field-role': 'current-version' } }), GadgetRef: gadgetRef(['version-id', 'version-number']), ...versions }, /the version reference "GadgetRef" has no property with x-field-role change-type/, '#/components/schemas/Gadget/properties/live/x-field-role'],
    ['an unknown list-query role', list([param('sort', 'sort-by')]), { Gadget: gadget(), ...versions }, /must be one of order-by, filter, tag-filter, include-builtin/, '#/paths/~1gadgets/get/parameters/0/x-list-query'],
    ['a list-query role on a header', list([{ ...param('X-Sort', 'order-by'), in: 'header' }]), { Gadget: gadget(), ...versions }, /only a query parameter/, '#/paths/~1gadgets/get/parameters/0/x-list-query'],
    ['a list-query role on an operation that is not a list', list([param('sort', 'order-by')], 'custom'), { Gadget: gadget(), ...versions }, /only a list operation/, '#/paths/~1gadgets/get/parameters'],
    ['two parameters with one list-query role', list([param('sort', 'order-by'), param('order', 'order-by')]), { Gadget: gadget(), ...versions }, /"sort" and "order" both say x-list-query order-by/, '#/paths/~1gadgets/get/parameters'],
    ['a tag filter on a resource without a tags field', list([param('labelled', 'tag-filter')]), { Gadget: gadget({ labels: { type: 'array' } }), ...versions }, /no property of resource "gadget" says x-field-role tags/, '#/paths/~1gadgets/get/parameters'],
  ])('refuses %s with the spec name and JSON pointer', (_what, paths, schemas, reason, pointer) => {
    const error = strictError(paths, schemas);
    expect(error.spec).toBe('gadgets');
    expect(error.message).toMatch(reason);
    expect(error.pointer).toBe(pointer);
  });
});
