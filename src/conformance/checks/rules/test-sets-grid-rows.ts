// The test-case rows behind a test set's grid (test-set-snapshot) after a revert and a duplicate, as
// docs/sandbox.md decides them ("Revert": a test set's revert brings its test-case rows back to the version's
// snapshot, same ids, rows the snapshot lacks deleted; "Duplicate": the copy gets new test-case rows with the
// source's grid content). The spec's revertTestSetVersion: "Re-apply the configuration and test-case grid of an
// earlier version".
import { send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf, type Created } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { operationWithRule, read, routeOf, same, show, succeed, versionsOf, type Json } from './records-support.js';

const RULE = 'test-set-snapshot';

/** What a row holds and where it is: the fields a grid row is made of. */
function rowOf(row: Json): Json {
  return { id: row.id, position: row.position, input_str: row.input_str, expected_output: row.expected_output ?? null, attributes: row.attributes ?? null };
}

/** The test case as its own get shows it, reduced to the grid's fields (404 is answered as undefined). */
async function storedRow(ctx: CheckContext, id: unknown): Promise<Json | undefined> {
  const get = routeOf(ctx, 'test_case', 'get');
  const answer = await send(ctx.target, get, { path: { test_case_id: String(id) } });
  if (answer.status === 404) return undefined;
  const record = recordOf(get, answer);
  if (!record) fail(`getting test case ${String(id)} answered ${answer.status}`);
  return rowOf(record);
}

async function gridRows(ctx: CheckContext, set: Created): Promise<{ rows: Json[]; count: unknown }> {
  const record = await read(ctx, 'test_set', set.path);
  return { rows: ((record.test_cases as Json[] | undefined) ?? []).map(rowOf), count: record.test_case_count };
}

export const revertEditedRows: Check = {
  name: `rule ${RULE}: a revert brings back each row as the version holds it (content edited since, place moved since, a deleted row revived) and deletes rows added since`,
  applies: operationWithRule('test_set', 'revert', RULE),
  async run(ctx) {
    const createCase = routeOf(ctx, 'test_case', 'create');
    const updateCase = routeOf(ctx, 'test_case', 'update');
    const deleteCase = routeOf(ctx, 'test_case', 'delete');
    const set = await ctx.world.create('test_set');
    const made: Json[] = [];
    for (const body of [{ input_str: 'greet' }, { input_str: 'refund', expected_output: 'refund issued', attributes: { channel: 'voice' } }, { input_str: 'goodbye' }]) {
      made.push(recordOf(createCase, await succeed(ctx, createCase, { body: { test_set_id: set.id, ...body } }, `creating test case ${body.input_str}`))!);
    }
    const version = (await versionsOf(ctx, 'test_set', set.path))[0]!;
    const before = await gridRows(ctx, set);
    // Edits in place after the version: content changed and cleared, a row moved, one deleted, one added.
    await succeed(ctx, updateCase, { path: { test_case_id: String(made[0]!.id) }, body: { input_str: 'greet warmly', expected_output: 'hello', attributes: { tone: 'warm' } } }, 'editing the first row');
    await succeed(ctx, updateCase, { path: { test_case_id: String(made[1]!.id) }, body: { expected_output: null } }, 'clearing the second row');
    await succeed(ctx, updateCase, { path: { test_case_id: String(made[2]!.id) }, body: { position: 0 } }, 'moving the last row to the top');
    await succeed(ctx, deleteCase, { path: { test_case_id: String(made[1]!.id) } }, 'deleting the second row');
    const added: Json[] = [];
    for (const input_str of ['added later', 'added last']) added.push(recordOf(createCase, await succeed(ctx, createCase, { body: { test_set_id: set.id, input_str } }, `adding row ${input_str}`))!);
    const reverted = await send(ctx.target, ctx.route, { path: { ...set.path, version_id: String(version.ulid) } });
    if (reverted.status !== ctx.route.success.status) fail(`reverting to the grid of three answered ${reverted.status}`);
    const after = await gridRows(ctx, set);
    if (!same(after, before)) fail(`after the revert the grid is ${show(after)}, expected ${show(before)}`);
    // docs/sandbox.md "Test sets": the test set shows its test-case records in test_cases, so each item is the
    // test case as its own get shows it.
    const get = routeOf(ctx, 'test_case', 'get');
    const shown = ((await read(ctx, 'test_set', set.path)).test_cases as Json[] | undefined) ?? [];
    for (const [i, row] of before.rows.entries()) {
      const stored = await storedRow(ctx, row.id);
      if (!same(stored, row)) fail(`after the revert test case ${String(row.id)} shows ${show(stored)}, expected the version's row ${show(row)}`);
      const whole = recordOf(get, await succeed(ctx, get, { path: { test_case_id: String(row.id) } }, 'getting a restored test case'));
      if (!same(shown[i], whole)) fail(`after the revert the test set shows row ${show(shown[i])}, its test case is ${show(whole)}`);
    }
    for (const row of added) if ((await storedRow(ctx, row.id)) !== undefined) fail(`row ${String(row.input_str)}, added after the version, is still there after the revert`);
  },
};

export const duplicateRows: Check = {
  name: `rule ${RULE}: a duplicated test set gets rows of its own (new ids, the copy's id) with the source's grid content in order; the source's rows stay`,
  applies: operationWithRule('test_set', 'duplicate', RULE),
  async run(ctx) {
    const update = routeOf(ctx, 'test_set', 'update');
    const set = await ctx.world.create('test_set');
    const grid = [{ input_str: 'first' }, { input_str: 'second', expected_output: 'an answer', attributes: { channel: 'chat' } }, { input_str: 'third', expected_output: null }];
    await succeed(ctx, update, { path: set.path, body: { test_cases: grid } }, 'saving a grid');
    const source = await gridRows(ctx, set);
    const copy = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: set.path }, 'duplicating the test set'))!;
    const copyId = String(copy.id);
    ctx.world.created.push({ resource: 'test_set', id: copyId, path: { test_set_id: copyId }, record: copy });
    const rows = ((copy.test_cases as Json[] | undefined) ?? []).map(rowOf);
    const content = (r: Json): Json => ({ position: r.position, input_str: r.input_str, expected_output: r.expected_output, attributes: r.attributes });
    if (!same(rows.map(content), source.rows.map(content)) || copy.test_case_count !== grid.length) fail(`the copy's grid is ${show(rows)} (count ${show(copy.test_case_count)}), expected the source's content ${show(source.rows.map(content))}`);
    for (const row of rows) {
      if (source.rows.some((s) => s.id === row.id)) fail(`the copy shares test case ${String(row.id)} with the source`);
      const get = routeOf(ctx, 'test_case', 'get');
      const stored = recordOf(get, await succeed(ctx, get, { path: { test_case_id: String(row.id) } }, 'getting a test case of the copy'))!;
      if (stored.test_set_id !== copyId || !same(rowOf(stored), row)) fail(`the copy's test case ${String(row.id)} shows ${show(stored)}, expected ${show(row)} in test set ${copyId}`);
    }
    if (!same(await gridRows(ctx, set), source)) fail('duplicating the test set changed the source grid');
  },
};

export const checks: Check[] = [revertEditedRows, duplicateRows];
