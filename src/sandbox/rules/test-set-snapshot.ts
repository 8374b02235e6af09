// test-set-snapshot: a test set's version captures its configuration plus the ordered test-case grid. The
// grid lives as test_case records; the test set keeps a snapshot of it in `test_cases` (a tracked field), so
// the generic versioning records one version per save that changes the grid, and none when the content is
// unchanged. Test-case operations refresh the parent's snapshot (one version per call that changes it).
// A duplicate gets new rows with the source's grid; a revert brings the rows back to the version's snapshot.
import { alnum } from '../ids.js';
import type { RequestContext } from '../engine/context.js';
import { bodyOf } from '../engine/request-parts.js';
import type { Rule } from '../engine/hooks.js';
import { clone, deepEqual, findRecord, newRecordData, present, setOwn, stampUpdated } from '../engine/records.js';
import { hasHistory, recordVersion } from '../engine/versions.js';
import { liveWithField, type Json, type StoredRecord } from '../storage/store.js';
import { asResource, getRecord, type RecordOf } from '../storage/typed.js';

const CONTENT = ['input_str', 'expected_output', 'attributes'] as const;

/**
 * Sorts rows (a fresh array from casesOf) into grid order, in place: by position; the sort is stable and the
 * store lists in insertion order, so the older row comes first on a tie.
 */
function gridOrder(cases: StoredRecord[]): StoredRecord[] {
  return cases.sort((a, b) => Number(a.data.position) - Number(b.data.position));
}

/** The grid as the test set shows it: each case as the test-case resource presents it, in position order. */
function snapshotOf(ctx: RequestContext, cases: StoredRecord[]): Json[] {
  const resource = ctx.runtime.resource('test_case');
  return gridOrder(cases).map((c) => present(resource, c));
}

/** Renumbers the other rows (in grid order) around a row placed at `at`: the ones from `at` on move down one. */
function makeRoom(ctx: RequestContext, others: StoredRecord[], at: number): void {
  others.forEach((row, index) => {
    setOwn(row.data, 'position', index < at ? index : index + 1);
    ctx.runtime.store.update(row);
  });
}

/** The live rows of a test set, looked up by the set (the platform's records hold none of the organization's test sets). */
function casesOf(ctx: RequestContext, testSetId: string): StoredRecord[] {
  return liveWithField(ctx.runtime.store, 'test_case', ctx.org, 'test_set_id', testSetId);
}

/**
 * What a grid holds, for comparing two grids with deepEqual (which ignores undefined values; null is absent too).
 * The order is the array's: deepEqual compares arrays item by item.
 */
function content(items: Json[]): unknown[] {
  return items.map((item) => Object.fromEntries(CONTENT.filter((k) => item[k] !== null).map((k) => [k, item[k]])));
}

/** Re-reads the grid into the parent's snapshot; records a version when it changed. */
function refreshParent(ctx: RequestContext, testSetId: string): void {
  const resource = ctx.runtime.resource('test_set');
  // A test case names a test set that exists (create checks it; the API only soft-deletes test sets), unless the
  // control plane removed that test set for good: its rows then have no grid to refresh.
  const parent = getRecord(ctx.runtime.store, 'test_set', testSetId);
  if (!parent) return;
  const previous = clone(parent.data);
  const cases = casesOf(ctx, testSetId);
  const snapshot = snapshotOf(ctx, cases);
  setOwn(parent.data, 'test_cases', snapshot);
  setOwn(parent.data, 'test_case_count', cases.length);
  // The grid's content, not the rows' timestamps: an edit that changes nothing records no version (seed Versioning 2).
  const before: unknown = previous.test_cases;
  const gridChanged = !deepEqual(content(Array.isArray(before) ? before : []), content(snapshot));
  if (!hasHistory(ctx.runtime, resource, parent) || gridChanged) {
    stampUpdated(resource, parent.data, ctx.now);
    recordVersion(ctx.runtime, resource, parent, 'save');
  }
  ctx.runtime.store.update(parent);
}

/** New test-case rows of a test set, one per grid item (its content only), in the given order. */
function insertRows(ctx: RequestContext, testSetId: string, items: Json[]): StoredRecord[] {
  const resource = ctx.runtime.resource('test_case');
  return items.map((item, position) => {
    const content: Json = {};
    for (const k of CONTENT) if (item[k] !== undefined && item[k] !== null) setOwn(content, k, clone(item[k]));
    const data = newRecordData(ctx.runtime, resource, { ...content, test_set_id: testSetId, position }, ctx.now, alnum(22));
    return ctx.runtime.store.insert({ kind: 'test_case', id: String(data.id), org: ctx.org, workspace: ctx.workspace, deleted: false, data });
  });
}

/**
 * After a revert (the generic revert re-applied the version's snapshot, test_cases included): the rows follow
 * the snapshot again. The snapshot's rows come back with their ids and content (deleted ones are revived),
 * rows it does not hold are deleted; no further version (the revert recorded one).
 */
function restoreRows(ctx: RequestContext, parent: RecordOf<'test_set'>): void {
  // The generic revert re-applied the version's test_cases, which every test-set version holds.
  const items = parent.data.test_cases as Json[];
  // Every live row goes, then the snapshot's rows come back (a row of both is deleted and revived at once).
  for (const row of casesOf(ctx, parent.id)) {
    row.deleted = true;
    ctx.runtime.store.update(row);
  }
  items.forEach((item, position) => {
    // The snapshot's rows are this test set's own: soft-deleted at most through the API; a row the control plane
    // removed for good stays gone.
    const row = ctx.runtime.store.get('test_case', String(item.id));
    if (!row) return;
    row.deleted = false;
    // A snapshot row is a test case as presented: a value it lacks is one the row did not have (the JSON copy
    // leaves undefined values out).
    const restored = clone(Object.fromEntries(CONTENT.map((k) => [k, item[k]])));
    for (const k of CONTENT) delete row.data[k];
    Object.assign(row.data, restored);
    setOwn(row.data, 'position', position);
    ctx.runtime.store.update(row);
  });
  setOwn(parent.data, 'test_cases', snapshotOf(ctx, casesOf(ctx, parent.id)));
  setOwn(parent.data, 'test_case_count', casesOf(ctx, parent.id).length);
  ctx.runtime.store.update(parent);
}

export const testSetSnapshot: Rule = {
  before(ctx) {
    if (ctx.route.resource === 'test_case' && ctx.route.action === 'create') {
      findRecord(ctx, 'test_set', ctx.body.test_set_id, { field: 'test_set_id' });
    }
  },
  write(ctx, next, previous) {
    if (ctx.route.resource === 'test_set') {
      // A copy (the generic duplicate) gets its own rows with the source's grid content.
      if (ctx.route.action === 'duplicate') {
        const given = Array.isArray(next.test_cases) ? (next.test_cases as Json[]) : []; // the copied snapshot: a list of row objects
        const created = insertRows(ctx, String(next.id), given);
        setOwn(next, 'test_cases', snapshotOf(ctx, created));
        setOwn(next, 'test_case_count', created.length);
        return;
      }
      // test_set_metadata and parameters default to {} (the create body's schema defaults, applied by the engine).
      if (previous === undefined) {
        setOwn(next, 'test_cases', []);
        setOwn(next, 'test_case_count', 0);
        return;
      }
      // Without test_cases the stored snapshot stays (the generic update keeps what the body omits).
      const given = bodyOf(ctx, 'updateTestSet').test_cases;
      if (!Array.isArray(given)) return;
      const existing = casesOf(ctx, String(next.id));
      // Unchanged content keeps the stored cases (and their ids): no new version.
      if (deepEqual(content(given), content(snapshotOf(ctx, existing)))) {
        setOwn(next, 'test_cases', snapshotOf(ctx, existing));
        return;
      }
      for (const c of existing) {
        c.deleted = true;
        ctx.runtime.store.update(c);
      }
      const created = insertRows(ctx, String(next.id), given);
      setOwn(next, 'test_cases', snapshotOf(ctx, created));
      setOwn(next, 'test_case_count', created.length);
      return;
    }
    // A test case: its position defaults to the end of the grid, and a position past the end is the end (a
    // position is a 0-based place in the grid); the other rows make room (the spec's "later rows move down").
    // An update keeps its test set (UpdateTestCaseRequest has no test_set_id) and, without a new position, its
    // place: the other rows are then renumbered as they were.
    const others = gridOrder(casesOf(ctx, String(next.test_set_id)).filter((c) => c.id !== next.id));
    const at = Math.min(next.position === undefined ? others.length : Number(next.position), others.length);
    setOwn(next, 'position', at);
    makeRoom(ctx, others, at);
  },
  after(ctx, result) {
    // Of the operations naming this rule, only the test set's revert has that action.
    if (ctx.route.action === 'revert') restoreRows(ctx, asResource('test_set', result.record!));
    if (ctx.route.resource !== 'test_case') return;
    // The generic create, update and delete answer the test case they wrote (deleteTestCase declares no
    // soft-delete answer), deleted or not.
    const id = String(result.record!.data.test_set_id);
    // Positions stay 0..n-1: a deleted row leaves no gap (the rows below it move up); after a create or a move
    // the renumbering changes nothing.
    const rows = gridOrder(casesOf(ctx, id));
    makeRoom(ctx, rows, rows.length);
    refreshParent(ctx, id);
  },
};
