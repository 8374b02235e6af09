// test-set-snapshot: a test set's version captures its configuration plus the ordered test-case grid. The
// grid lives as test_case records; the test set keeps a snapshot of it in `test_cases` (a tracked field), so
// the generic versioning records one version per save that changes the grid, and none when the content is
// unchanged. Test-case operations refresh the parent's snapshot (one version per call that changes it).
import { invalid, notFound } from '../errors.js';
import { alnum } from '../ids.js';
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { clone, deepEqual, findRecord, newRecordData, present, setOwn, stampUpdated } from '../engine/records.js';
import { hasHistory, recordVersion } from '../engine/versions.js';
import type { Json, StoredRecord } from '../storage/store.js';

const CONTENT = ['input_str', 'expected_output', 'attributes'] as const;

/** Rows in grid order: by position, the older row first on a tie. */
function gridOrder(cases: StoredRecord[]): StoredRecord[] {
  return cases.slice().sort((a, b) => Number(a.data.position) - Number(b.data.position) || a.seq - b.seq);
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

function casesOf(ctx: RequestContext, testSetId: string): StoredRecord[] {
  return ctx.runtime.store.list('test_case', { org: ctx.org }).filter((c) => c.org === ctx.org && c.data.test_set_id === testSetId);
}

function content(items: Json[]): unknown[] {
  return items.map((item, index) => ({ position: index, ...Object.fromEntries(CONTENT.filter((k) => item[k] !== undefined && item[k] !== null).map((k) => [k, item[k]])) }));
}

/** Re-reads the grid into the parent's snapshot; records a version when it changed. */
function refreshParent(ctx: RequestContext, testSetId: string): void {
  const resource = ctx.runtime.resource('test_set');
  const parent = ctx.runtime.store.get('test_set', testSetId);
  if (!parent) return;
  const previous = clone(parent.data);
  const cases = casesOf(ctx, testSetId).filter((c) => !c.deleted);
  setOwn(parent.data, 'test_cases', snapshotOf(ctx, cases));
  setOwn(parent.data, 'test_case_count', cases.length);
  // The grid's content, not the rows' timestamps: an edit that changes nothing records no version (seed Versioning 2).
  const gridChanged = !deepEqual(content((previous.test_cases as Json[] | undefined) ?? []), content(parent.data.test_cases as Json[]));
  if (!hasHistory(ctx.runtime, resource, parent) || gridChanged) {
    stampUpdated(resource, parent.data, ctx.now);
    recordVersion(ctx.runtime, resource, parent, 'save');
  }
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
      if (previous === undefined) {
        if (next.test_set_metadata === undefined) setOwn(next, 'test_set_metadata', {});
        if (next.parameters === undefined) setOwn(next, 'parameters', {});
        setOwn(next, 'test_cases', []);
        setOwn(next, 'test_case_count', 0);
        return;
      }
      if (!Array.isArray(ctx.body.test_cases)) {
        setOwn(next, 'test_cases', previous.test_cases ?? []);
        return;
      }
      const given = ctx.body.test_cases as Json[];
      const existing = casesOf(ctx, String(next.id)).filter((c) => !c.deleted);
      // Unchanged content keeps the stored cases (and their ids): no new version.
      if (deepEqual(content(given), content(snapshotOf(ctx, existing)))) {
        setOwn(next, 'test_cases', snapshotOf(ctx, existing));
        return;
      }
      const resource = ctx.runtime.resource('test_case');
      for (const c of existing) {
        c.deleted = true;
        ctx.runtime.store.update(c);
      }
      const created = given.map((item, position) => {
        const data = newRecordData(ctx.runtime, resource, { ...item, test_set_id: next.id, position }, ctx.now, alnum(22));
        return ctx.runtime.store.insert({ kind: 'test_case', id: String(data.id), org: ctx.org, workspace: ctx.workspace, deleted: false, data });
      });
      setOwn(next, 'test_cases', snapshotOf(ctx, created));
      setOwn(next, 'test_case_count', created.length);
      return;
    }
    // A test case: its position defaults to the end of the grid; given, the other rows make room (the spec's
    // "later rows move down"); it cannot move to another test set.
    const others = gridOrder(casesOf(ctx, String(next.test_set_id)).filter((c) => !c.deleted && c.id !== next.id));
    if (previous === undefined) {
      if (next.position === undefined) setOwn(next, 'position', others.length);
      else makeRoom(ctx, others, Number(next.position));
    } else if (next.test_set_id !== previous.test_set_id) {
      throw invalid('test_set_id', 'a test case cannot move to another test set');
    } else if (next.position !== previous.position) {
      makeRoom(ctx, others, Number(next.position));
    }
  },
  after(ctx, result) {
    if (ctx.route.resource !== 'test_case') return;
    const id = result.record?.data.test_set_id ?? (() => {
      const param = ctx.route.params.path[0]?.name;
      const record = param === undefined ? undefined : ctx.runtime.store.get('test_case', String(ctx.path[param]));
      if (!record) throw notFound(param ?? null, 'test case');
      return record.data.test_set_id;
    })();
    // A deleted row leaves no gap: the rows below it move up.
    if (ctx.route.action === 'delete') {
      const rows = gridOrder(casesOf(ctx, String(id)).filter((c) => !c.deleted));
      makeRoom(ctx, rows, rows.length);
    }
    refreshParent(ctx, String(id));
  },
};
