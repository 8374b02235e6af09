// The generic engine reads the API's fields by the role the spec gives them (x-field-role, x-list-query), never
// by name: a tiny spec whose fields and list parameters are named otherwise than the Evaluation Platform's still
// gets its records stamped, versioned, filtered and ordered.
import { afterEach, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/model/index.js';
import { resourceRows, routeRow } from '../../src/emit/server/route-table.js';
import { ApiFailure } from '../../src/sandbox/errors.js';
import { applyListQuery } from '../../src/sandbox/engine/list-query.js';
import { isBuiltin, newRecordData, SANDBOX_USER, stampCreated, stampUpdated } from '../../src/sandbox/engine/records.js';
import { pinVersion, recordVersion } from '../../src/sandbox/engine/versions.js';
import type { RequestContext, Runtime } from '../../src/sandbox/engine/context.js';
import type { ResourceRow, Route } from '../../src/sandbox/engine/tables.js';
import { openSqliteStore } from '../../src/sandbox/storage/sqlite-store.js';
import { PLATFORM_ORG, type Store, type StoredRecord } from '../../src/sandbox/storage/store.js';
import { doc, ok, openapi } from '../support/docs.js';

const str = (role?: string) => ({ type: 'string', ...(role ? { 'x-field-role': role } : {}) });
const gadget = {
  'x-provenance': 'seed',
  'x-resource': { name: 'gadget', id: 'id', scope: 'organization' },
  'x-versioned': { tracked: ['label'], history: 'listGadgetVersions' },
  'x-lifecycle': { field: 'phase', initial: 'LIVE' },
  type: 'object',
  properties: {
    id: str(),
    handle: { type: 'string', pattern: '^gizmos/[a-z0-9]+$', 'x-field-role': 'resource-name' },
    label: str(),
    phase: { type: 'string', enum: ['LIVE', 'GONE'] },
    // Not a resource name: a field called `name` is the body's to give.
    name: str(),
    rank: { type: 'integer' },
    // Names the engine used to know (created_at, updated_by, ...) are plain fields here: only roles count.
    created_at: str(),
    updated_by: str(),
    born: str('created-at'),
    touched: str('updated-at'),
    author: str('created-by'),
    editor: str('updated-by'),
    live: { 'x-field-role': 'current-version', oneOf: [{ $ref: '#/components/schemas/GadgetRef' }, { type: 'null' }] },
    shipped: { type: 'boolean', 'x-field-role': 'builtin-flag' },
    labels: { type: 'array', items: { type: 'string' }, 'x-field-role': 'tags' },
  },
};
const query = (name: string, role: string, schema: Record<string, unknown> = { type: 'string' }) => ({ name, in: 'query', schema, 'x-list-query': role });
const paths = {
  '/gadgets': {
    get: {
      operationId: 'listGadgets',
      'x-provenance': 'seed',
      'x-operation': { resource: 'gadget', action: 'list' },
      parameters: [
        query('sort', 'order-by', { type: 'string', default: 'rank' }),
        query('where', 'filter'),
        query('labelled', 'tag-filter', { type: 'array', items: { type: 'string' } }),
        query('with_shipped', 'include-builtin', { type: 'boolean', default: false }),
      ],
      responses: ok({ type: 'object', properties: { gadgets: { type: 'array', items: { $ref: '#/components/schemas/Gadget' } } } }),
    },
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
};
// A version record and a reference to a version whose keys are named otherwise than the Evaluation Platform's
// (ulid, version_number, change_type): the engine finds and builds them by role.
const GadgetVersion = {
  'x-provenance': 'seed',
  type: 'object',
  properties: {
    path: str('resource-name'),
    vid: str('version-id'),
    seq: { type: 'integer', 'x-field-role': 'version-number' },
    how: str('change-type'),
    undoes: str('reverted-from'),
    saved_on: str('created-at'),
    saver: str('created-by'),
  },
};
const GadgetRef = { 'x-provenance': 'seed', type: 'object', properties: { at: str('version-id'), n: { type: 'integer', 'x-field-role': 'version-number' }, kind: str('change-type') } };

const model = buildModel([doc('gadgets', openapi(paths, { Gadget: gadget, GadgetVersion, GadgetRef }))], { policy: 'strict' });
const resource: ResourceRow = resourceRows(model)[0]!;
const routes: Route[] = model.operations.map((op) => ({ ...routeRow(model, op), validators: {} }));
const listRoute = routes.find((r) => r.id === 'listGadgets')!;
const NOW = '2026-11-25T08:00:00.000Z';

let store: Store | undefined;
afterEach(() => store?.close());

function runtime(): Runtime {
  store = openSqliteStore(':memory:');
  return {
    store,
    tables: { basePath: '/v1', workspaceHeader: null, workspace: null, routes, resources: [resource], handlers: [], documents: [] },
    clock: { now: () => new Date(NOW) },
    resource: () => resource,
    routeById: (id) => routes.find((r) => r.id === id)!,
    raise: () => {},
  };
}

function record(data: Record<string, unknown>, org = 'org_a'): StoredRecord {
  return { kind: 'gadget', id: String(data.id), org, workspace: null, deleted: false, seq: 0, data };
}

/** The ids `applyListQuery` keeps, in its order, for a list request with `q` as its query. */
function listed(records: StoredRecord[], q: Record<string, unknown>): string[] {
  const ctx = { route: listRoute, query: q } as unknown as RequestContext;
  return applyListQuery(ctx, resource, records).map((r) => r.id);
}

describe('the engine reads fields by role', () => {
  it('stamps the created-at, updated-at, created-by and updated-by fields of a new record, whatever their names', () => {
    const rt = runtime();
    const data = newRecordData(rt, resource, { label: 'a' }, NOW, 'g1');
    expect(data).toMatchObject({ id: 'g1', handle: 'gizmos/g1', label: 'a', phase: 'LIVE', born: NOW, touched: NOW, author: SANDBOX_USER, editor: SANDBOX_USER });
    // A state the body gives is kept.
    expect(newRecordData(rt, resource, { phase: 'GONE' }, NOW, 'g2').phase).toBe('GONE');
    // A field merely called like another API's server field is left alone.
    expect(data).not.toHaveProperty('name');
    expect(data).not.toHaveProperty('created_at');
    expect(data).not.toHaveProperty('updated_by');
  });

  it.each([
    ['a create keeps times and authors already given (fixtures, rules)', 'created', { born: 'then', author: 'ana' }, { born: 'then', touched: NOW, author: 'ana', editor: SANDBOX_USER }],
    ['a change moves only the updated-at and updated-by fields', 'updated', { born: 'then', touched: 'then', author: 'ana', editor: 'ana' }, { born: 'then', touched: NOW, author: 'ana', editor: SANDBOX_USER }],
  ])('%s', (_what, stamp, given, want) => {
    const data = { ...given };
    (stamp === 'created' ? stampCreated : stampUpdated)(resource, data, NOW);
    expect(data).toEqual(want);
  });

  it('stamps a version by its item schema roles and points the current-version field at it', () => {
    const rt = runtime();
    const r = rt.store.insert({ kind: 'gadget', id: 'g1', org: 'org_a', workspace: null, deleted: false, data: { id: 'g1', label: 'a' } });
    const ref: Record<string, unknown> = recordVersion(rt, resource, r, 'save');
    // The reference has the reference schema's keys, the record the item schema's.
    expect(ref).toEqual({ at: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/), n: 1, kind: 'save' });
    expect(r.data.live).toEqual(ref);
    const [version] = rt.store.listVersions('gadget', 'g1');
    expect(version!.data).toEqual({ path: `gadgets/g1/versions/${ref.at}`, vid: ref.at, seq: 1, how: 'save', saved_on: NOW, saver: SANDBOX_USER, label: 'a' });
    // A pinned version is the newest one, minted when the record has none.
    expect(pinVersion(rt, resource, r)).toEqual(ref);
    // A revert's version names the version it re-applied, under the item schema's reverted-from property.
    const back: Record<string, unknown> = recordVersion(rt, resource, r, 'revert', ref.at);
    expect(back).toMatchObject({ n: 2, kind: 'revert' });
    expect(rt.store.listVersions('gadget', 'g1')[0]!.data).toMatchObject({ vid: back.at, seq: 2, how: 'revert', undoes: ref.at });
    expect(pinVersion(rt, resource, r)).toEqual(back);
  });

  it.each([
    ['an organization record', {}, 'org_a', false],
    ['one whose builtin-flag field is true', { shipped: true }, 'org_a', true],
    ['one whose builtin-flag field is false', { shipped: false }, 'org_a', false],
    ['a platform record', {}, PLATFORM_ORG, true],
  ])('%s is built-in: %s', (_what, data, org, want) => {
    expect(isBuiltin(resource, record({ id: 'g', ...data }, org))).toBe(want);
  });

  const records = [
    record({ id: 'g1', rank: 3, label: 'red', labels: ['Big', 'round'] }),
    record({ id: 'g2', rank: 1, label: 'blue', labels: ['big'], shipped: true }),
    record({ id: 'g3', rank: 2, label: 'red', labels: [] }),
    record({ id: 'g4', rank: 4, label: 'green' }, PLATFORM_ORG),
  ];
  it.each([
    ['no query: the order-by default, built-ins left out by the include-builtin default', {}, ['g3', 'g1']],
    ['include-builtin true keeps built-ins', { with_shipped: true }, ['g2', 'g3', 'g1', 'g4']],
    ['order-by descending', { sort: '-rank', with_shipped: true }, ['g4', 'g1', 'g3', 'g2']],
    ['tag-filter matches the tags field, ignoring case', { labelled: ['BIG'], with_shipped: true }, ['g2', 'g1']],
    ['tag-filter needs every tag', { labelled: ['big', 'round'], with_shipped: true }, ['g1']],
    ['filter', { where: 'label = "red"' }, ['g3', 'g1']],
  ])('a list query by role: %s', (_what, q, want) => {
    expect(listed(records, q)).toEqual(want);
  });

  it.each([
    ['an order-by value that is not a field', { sort: 'colour' }, 'sort', /cannot be ordered by "colour"/],
    ['an unreadable order-by value', { sort: '-rank desc' }, 'sort', /is not a field name/],
    ['a filter on an unknown field', { where: 'colour = 1' }, 'where', /not one of its fields/],
  ])('refuses %s on the parameter that plays the role', (_what, q, field, reason) => {
    const error = (() => {
      try {
        listed(records, q);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).details[0]!.field).toBe(field);
    expect((error as ApiFailure).details[0]!.description).toMatch(reason);
  });
});
