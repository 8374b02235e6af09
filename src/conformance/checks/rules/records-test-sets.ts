// Record rules of test sets (test-set-snapshot): a test set's version captures its configuration plus the
// ordered test-case grid (seed Versioning 4); the grid is stored as test-case records and shown in
// `test_cases` (docs/sandbox.md "Test sets", the sandbox's choice).
import { nextPageParam } from '../../paging.js';
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf, type Created } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { operationWithRule, read, routeOf, same, show, succeed, unusedLike, versionsOf, type Json } from './records-support.js';

interface Grid {
  ids: string[];
  inputs: string[];
  positions: unknown[];
  count: unknown;
  version: unknown;
}

/** The test set's grid as a get shows it. */
async function gridOf(ctx: CheckContext, set: Created): Promise<Grid> {
  const record = await read(ctx, 'test_set', set.path);
  const cases = (record.test_cases as Json[] | undefined) ?? [];
  return { ids: cases.map((c) => String(c.id)), inputs: cases.map((c) => String(c.input_str)), positions: cases.map((c) => c.position), count: record.test_case_count, version: record.current_version };
}

async function versionCount(ctx: CheckContext, set: Created): Promise<number> {
  return (await versionsOf(ctx, 'test_set', set.path)).length;
}

/** The input_str of each test case in the newest version's snapshot. */
async function newestSnapshot(ctx: CheckContext, set: Created): Promise<string[]> {
  const [newest] = await versionsOf(ctx, 'test_set', set.path);
  return ((newest?.test_cases as Json[] | undefined) ?? []).map((c) => String(c.input_str));
}

function expectVersions(what: string, before: number, after: number, expected: number): void {
  if (after - before !== expected) fail(`${what} recorded ${after - before} versions, expected ${expected}`);
}

async function createCase(ctx: CheckContext, set: Created, inputStr: string, position?: number): Promise<Json> {
  const create = routeOf(ctx, 'test_case', 'create');
  const body = { test_set_id: set.id, input_str: inputStr, ...(position === undefined ? {} : { position }) };
  return recordOf(create, await succeed(ctx, create, { body }, `creating test case ${inputStr}`))!;
}

/** The grid shows these rows in this order, at positions 0, 1, ... */
function expectGrid(grid: Grid, ids: unknown[], what: string): void {
  const positions = ids.map((_, i) => i);
  if (!same(grid.ids, ids) || !same(grid.positions, positions) || grid.count !== ids.length) {
    fail(`${what}: expected the grid ${show(ids)} at positions ${show(positions)} (count ${ids.length}), got ${show(grid.ids)} at ${show(grid.positions)} (count ${show(grid.count)})`);
  }
}

export const newTestSetGrid: Check = {
  name: 'rule test-set-snapshot: a new test set has an empty grid (test_cases [], count 0) and version 1 snapshots it',
  applies: operationWithRule('test_set', 'create', 'test-set-snapshot'),
  async run(ctx) {
    const set = recordOf(ctx.route, await succeed(ctx, ctx.route, { body: await ctx.world.bodyFor(ctx.route) }, 'creating a test set'))!;
    if (!same(set.test_cases, []) || set.test_case_count !== 0) fail(`a new test set shows test_cases ${show(set.test_cases)} and test_case_count ${show(set.test_case_count)}, expected [] and 0`);
    // docs/sandbox.md "Versions": version 1 is recorded on create; seed Versioning 4: it holds the (empty) grid.
    const versions = await versionsOf(ctx, 'test_set', { test_set_id: String(set.id) });
    if (versions.length !== 1 || !same(versions[0]!.test_cases, [])) fail(`expected one version with an empty grid, got ${show(versions)}`);
  },
};

/** A grid of three rows; the second has every optional column. */
function sampleGrid(seed: number): Json[] {
  return [{ input_str: `Greet the agent ${seed}` }, { input_str: `Ask for a refund ${seed}`, expected_output: 'Refund issued', attributes: { channel: 'voice' } }, { input_str: `Say goodbye ${seed}` }];
}

export const gridSave: Check = {
  name: 'rule test-set-snapshot: a PATCH with test_cases replaces the grid in order with one version; the same content again keeps the ids and records none',
  applies: operationWithRule('test_set', 'update', 'test-set-snapshot'),
  async run(ctx) {
    const set = await ctx.world.create('test_set');
    const grid = sampleGrid(ctx.world.nextSeed());
    const start = await versionCount(ctx, set);
    const saved = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: set.path, body: { test_cases: grid } }, 'saving a grid'))!;
    const rows = (saved.test_cases as Json[] | undefined) ?? [];
    // Seed Versioning 4: a batch of cell edits saved together yields one version holding the ordered grid.
    if (!same(rows.map((r) => r.input_str), grid.map((g) => g.input_str))) fail(`the saved grid is ${show(rows.map((r) => r.input_str))}, expected ${show(grid.map((g) => g.input_str))}`);
    if (saved.test_case_count !== grid.length) fail(`test_case_count ${show(saved.test_case_count)} after saving ${grid.length} test cases`);
    if (rows.some((r, i) => r.position !== i || r.test_set_id !== set.id)) fail(`the saved rows should carry positions 0.. in order and the test set's id, got ${show(rows.map((r) => [r.position, r.test_set_id]))}`);
    expectVersions('saving a grid', start, await versionCount(ctx, set), 1);
    if (!same(await newestSnapshot(ctx, set), grid.map((g) => g.input_str))) fail('the new version does not hold the saved grid in order');
    // docs/sandbox.md "Test sets": the grid is stored as test-case records.
    const getCase = routeOf(ctx, 'test_case', 'get');
    const stored = recordOf(getCase, await succeed(ctx, getCase, { path: { test_case_id: String(rows[1]!.id) } }, 'getting a saved test case'))!;
    if (stored.expected_output !== grid[1]!.expected_output || !same(stored.attributes, grid[1]!.attributes)) fail(`the stored test case shows ${show(stored)}`);
    await expectUnchanged(ctx, set, grid, rows);
    await expectReplaced(ctx, set, grid, rows);
  },
};

/** Re-saving the same content (an absent and a null expected_output alike) keeps the rows and their ids. */
async function expectUnchanged(ctx: CheckContext, set: Created, grid: Json[], rows: Json[]): Promise<void> {
  const before = await versionCount(ctx, set);
  const again = grid.map((g) => ({ expected_output: null, ...g }));
  const resaved = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: set.path, body: { test_cases: again } }, 're-saving the same grid'))!;
  // Seed Versioning 4: re-saving with unchanged test-case content yields no version.
  expectVersions('re-saving the same grid', before, await versionCount(ctx, set), 0);
  const ids = ((resaved.test_cases as Json[] | undefined) ?? []).map((r) => r.id);
  if (!same(ids, rows.map((r) => r.id))) fail(`re-saving the same grid changed the test case ids from ${show(rows.map((r) => r.id))} to ${show(ids)}`);
  // Seed Versioning 2: a save of other, cosmetic fields leaves the grid as it is.
  const renamed = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: set.path, body: { description: `renamed ${ctx.world.nextSeed()}` } }, 'a save without test_cases'))!;
  if (!same(((renamed.test_cases as Json[] | undefined) ?? []).map((r) => r.id), ids)) fail('a save without test_cases changed the grid');
}

/** Any change of a row's content or of the order replaces the grid: new ids, the old rows gone, one version. */
async function expectReplaced(ctx: CheckContext, set: Created, grid: Json[], rows: Json[]): Promise<void> {
  const variants: [string, Json[]][] = [
    ['a changed attributes column', grid.map((g, i) => (i === 1 ? { ...g, attributes: { channel: 'chat' } } : g))],
    ['a changed expected_output', grid.map((g, i) => (i === 1 ? { ...g, expected_output: 'Refund refused' } : g))],
    ['a changed order', [...grid].reverse()],
  ];
  let previous = rows.map((r) => String(r.id));
  for (const [what, next] of variants) {
    const before = await versionCount(ctx, set);
    const saved = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: set.path, body: { test_cases: next } }, `saving a grid with ${what}`))!;
    expectVersions(`saving a grid with ${what}`, before, await versionCount(ctx, set), 1);
    const ids = ((saved.test_cases as Json[] | undefined) ?? []).map((r) => String(r.id));
    // docs/sandbox.md "Test sets": a grid whose content differs replaces the stored one (new ids).
    if (ids.some((id) => previous.includes(id))) fail(`saving a grid with ${what} kept test case ids ${show(ids.filter((id) => previous.includes(id)))}`);
    previous = ids;
  }
  const getCase = routeOf(ctx, 'test_case', 'get');
  expectError(await send(ctx.target, getCase, { path: { test_case_id: String(rows[0]!.id) } }), 404, 'NOT_FOUND', undefined, 'a test case of a replaced grid');
}

export const caseCreate: Check = {
  name: 'rule test-set-snapshot: each test case created joins its grid (the test set update_time moving forward; at the end, or at its position with later rows moving down; a position past the end is the end) with one version; an unknown test set is 404 on test_set_id',
  applies: operationWithRule('test_case', 'create', 'test-set-snapshot'),
  async run(ctx) {
    const set = await ctx.world.create('test_set');
    const start = await versionCount(ctx, set);
    const stamped = (await read(ctx, 'test_set', set.path)).update_time;
    await new Promise((r) => setTimeout(r, 5));
    const first = await createCase(ctx, set, 'First row');
    // Seed "Resources and their fields" (audit fields): a change of the test set, here its grid, moves its update time.
    const restamped = (await read(ctx, 'test_set', set.path)).update_time;
    if (typeof stamped === 'string' && !(Date.parse(String(restamped)) > Date.parse(stamped))) fail(`the test set's update_time was ${stamped} before a test case joined its grid and ${show(restamped)} after`);
    const second = await createCase(ctx, set, 'Second row');
    // docs/sandbox.md "Test sets": each test-case create that changes the grid records one version.
    expectVersions('creating two test cases', start, await versionCount(ctx, set), 2);
    // The spec's choice (CreateTestCaseRequest.position): omitted, a test case is appended at the end.
    expectGrid(await gridOf(ctx, set), [first.id, second.id], 'after two appends');
    if (!same(await newestSnapshot(ctx, set), ['First row', 'Second row'])) fail('the newest version does not hold the grid');
    // The spec's choice (CreateTestCaseRequest.position): a given place; later rows move down.
    const top = await createCase(ctx, set, 'Top row', 0);
    expectGrid(await gridOf(ctx, set), [top.id, first.id, second.id], 'after inserting a row at position 0');
    // The spec's TestCase.position is the 0-based place in the grid, so a position past the end can only be the
    // end (the sandbox's choice where the spec is silent: appended, as when omitted, rather than refused).
    const beyond = await createCase(ctx, set, 'Row past the end', 7);
    if (beyond.position !== 3) fail(`a test case created at position 7 of a 3-row grid answers position ${show(beyond.position)}, expected 3 (the end)`);
    expectGrid(await gridOf(ctx, set), [top.id, first.id, second.id, beyond.id], 'after creating a row at a position past the end');
    // Named on its field like the run launch's references (docs/sandbox.md "Runs", the sandbox's choice).
    const missing = { test_set_id: unusedLike(set.id), input_str: 'Orphan row' };
    expectError(await send(ctx.target, ctx.route, { body: missing }), 404, 'NOT_FOUND', 'test_set_id', 'a test case for a test set that does not exist');
  },
};

export const caseUpdate: Check = {
  name: 'rule test-set-snapshot: editing or moving a test case updates its grid with one version (other rows make room); an edit that changes nothing records none',
  applies: operationWithRule('test_case', 'update', 'test-set-snapshot'),
  async run(ctx) {
    const set = await ctx.world.create('test_set');
    const row = await createCase(ctx, set, 'Before the edit');
    const other = await createCase(ctx, set, 'Untouched row');
    const last = await createCase(ctx, set, 'Last row');
    const path = { test_case_id: String(row.id) };
    const start = await versionCount(ctx, set);
    await succeed(ctx, ctx.route, { path, body: { input_str: 'After the edit' } }, 'editing a test case');
    expectVersions('editing a test case', start, await versionCount(ctx, set), 1);
    const grid = await gridOf(ctx, set);
    if (!same(grid.inputs, ['After the edit', 'Untouched row', 'Last row'])) fail(`the grid shows ${show(grid.inputs)} after the edit`);
    if (!same(await newestSnapshot(ctx, set), grid.inputs)) fail('the newest version does not hold the edited grid');
    // Seed Versioning 2: a save with no meaningful change creates no version.
    const edited = await versionCount(ctx, set);
    await succeed(ctx, ctx.route, { path, body: { input_str: 'After the edit' } }, 'repeating the same edit');
    expectVersions('repeating the same edit', edited, await versionCount(ctx, set), 0);
    // The spec's choice (UpdateTestCaseRequest.position): a row moved to a place, the other rows shift to make room.
    await succeed(ctx, ctx.route, { path: { test_case_id: String(last.id) }, body: { position: 0 } }, 'moving the last row to the top');
    expectGrid(await gridOf(ctx, set), [last.id, row.id, other.id], 'after moving the last row to position 0');
    await succeed(ctx, ctx.route, { path, body: { position: 2 } }, 'moving a row to the bottom');
    expectGrid(await gridOf(ctx, set), [last.id, other.id, row.id], 'after moving the second row to position 2');
    // As on create: a position past the end is the end (the sandbox's choice, TestCase.position is a place in the grid).
    const moved = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: { test_case_id: String(last.id) }, body: { position: 9 } }, 'moving the first row past the end'))!;
    if (moved.position !== 2) fail(`a test case moved to position 9 of a 3-row grid answers position ${show(moved.position)}, expected 2 (the end)`);
    expectGrid(await gridOf(ctx, set), [other.id, row.id, last.id], 'after moving the first row past the end');
    // Seed Versioning 4: the order is part of the snapshot, so the move records a version.
    expectVersions('moving three rows', edited, await versionCount(ctx, set), 3);
  },
};

export const caseDelete: Check = {
  name: 'rule test-set-snapshot: deleting a test case removes it from its grid with one version; the rows below move up',
  applies: operationWithRule('test_case', 'delete', 'test-set-snapshot'),
  async run(ctx) {
    const set = await ctx.world.create('test_set');
    const gone = await createCase(ctx, set, 'Row to delete');
    const kept = await createCase(ctx, set, 'Row to keep');
    const start = await versionCount(ctx, set);
    await succeed(ctx, ctx.route, { path: { test_case_id: String(gone.id) } }, 'deleting a test case');
    expectVersions('deleting a test case', start, await versionCount(ctx, set), 1);
    // The spec's choice (TestCase.position is the 0-based place in the grid): the rows below move up.
    expectGrid(await gridOf(ctx, set), [kept.id], 'after deleting the first row');
    if (!same(await newestSnapshot(ctx, set), ['Row to keep'])) fail('the newest version still holds the deleted row');
    const appended = await createCase(ctx, set, 'Row appended');
    expectGrid(await gridOf(ctx, set), [kept.id, appended.id], 'after appending a row to the shortened grid');
  },
};

export const caseListOrder: Check = {
  name: 'rule test-case-grid-order: the test cases of a test set list in grid order (by position), on every page',
  applies: operationWithRule('test_case', 'list', 'test-case-grid-order'),
  async run(ctx) {
    const set = await ctx.world.create('test_set');
    // Made in this order, the grid reads C, A, B: the order of making differs from the grid's.
    const a = await createCase(ctx, set, 'Row A');
    const b = await createCase(ctx, set, 'Row B');
    const c = await createCase(ctx, set, 'Row C', 0);
    const expected = [c.id, a.id, b.id].map(String);
    const paging = ctx.route.pagination;
    const listed: string[] = [];
    let token: string | undefined;
    // One row per page where the list pages, so the order holds across pages too.
    for (let page = 0; page < 5; page++) {
      const query: Record<string, string> = { test_set_id: set.id, ...(paging ? { [paging.pageSize]: '1' } : {}), ...(token && paging ? { [paging.pageToken]: token } : {}) };
      const answer = await succeed(ctx, ctx.route, { query }, 'listing the test cases');
      const body = answer.body as Json;
      const items = (body[paging?.items ?? 'test_cases'] as Json[] | undefined) ?? [];
      listed.push(...items.map((i) => String(i.id)));
      token = nextPageParam(ctx.route, body);
      if (token === undefined) break;
    }
    if (!same(listed, expected)) fail(`the test cases list as ${show(listed)}, expected the grid order ${show(expected)}`);
  },
};

export const checks: Check[] = [newTestSetGrid, gridSave, caseCreate, caseUpdate, caseDelete, caseListOrder];
