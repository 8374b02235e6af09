// The rules' typed access to the store (src/sandbox/storage/typed.ts): a resource's records come back with their data
// typed as the generated type of the resource (a wrong field or kind fails the type check), from the same store the
// engine writes through, with the same filters; a record of another kind is refused rather than mistyped.
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { Alert } from '../../generated/client/types.js';
import { openSqliteStore } from '../../src/sandbox/storage/sqlite-store.js';
import { PLATFORM_ORG, type Store } from '../../src/sandbox/storage/store.js';
import { asResource, getRecord, listRecords, recordsWithField, type RecordOf } from '../../src/sandbox/storage/typed.js';

let store: Store;

beforeEach(() => {
  store = openSqliteStore(':memory:');
  store.insert({ kind: 'alert', id: 'a1', org: 'org_1', workspace: null, deleted: false, data: { name: 'Mine', trigger_count: 2 } });
  store.insert({ kind: 'alert', id: 'a2', org: 'org_2', workspace: null, deleted: false, data: { name: 'Theirs', trigger_count: 0 } });
  store.insert({ kind: 'metric', id: 'm1', org: PLATFORM_ORG, workspace: null, deleted: false, data: { metric_name: 'Built in' } });
});

afterEach(() => store.close());

describe('typed store access', () => {
  it('lists a resource with the store filter, its data typed as the generated type', () => {
    const alerts = listRecords(store, 'alert', { org: 'org_1' });
    expectTypeOf(alerts).toEqualTypeOf<RecordOf<'alert'>[]>();
    expectTypeOf(alerts[0]!.data.trigger_count).toEqualTypeOf<Alert['trigger_count']>();
    expect(alerts.map((a) => [a.id, a.data.name, a.data.trigger_count])).toEqual([['a1', 'Mine', 2]]);
  });

  it('sees platform records from every organization, as the untyped list does', () => {
    expect(listRecords(store, 'metric', { org: 'org_2' }).map((m) => m.id)).toEqual(['m1']);
    expect(store.list('metric', { org: 'org_2' }).map((m) => m.id)).toEqual(['m1']);
  });

  it('gets and finds by field; writes through a typed record reach the store', () => {
    const alert = getRecord(store, 'alert', 'a1')!;
    alert.data.trigger_count += 1;
    store.update(alert);
    expect(store.get('alert', 'a1')!.data.trigger_count).toBe(3);
    expect(recordsWithField(store, 'alert', 'org_2', 'name', 'Theirs').map((a) => a.id)).toEqual(['a2']);
    expect(getRecord(store, 'alert', 'missing')).toBeUndefined();
  });

  it('refuses to type a record of another kind', () => {
    const metric = store.get('metric', 'm1')!;
    expect(() => asResource('alert', metric)).toThrow('a record of kind metric is not a record of alert');
    expect(asResource('metric', metric).data.metric_name).toBe('Built in');
  });
});
