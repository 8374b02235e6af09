// run-cancel (DELETE /runs/{run_id}; facts 2.17: DELETE cancels or deletes depending on the run's status;
// docs/sandbox.md "Runs at work", Cancelling): a run still being executed becomes CANCELLED and stays readable, its
// execution stops (it stays CANCELLED, and none of its conversations is left queued or in progress); a finished
// run is deleted as before (the soft-delete checks).
import { fail, skip } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { operationWithRule, routeOf, show, succeed, type Json } from './records-support.js';
import { launch, runIdOf } from './records-runs.js';

const RULE = 'run-cancel';
const FINISHED = ['COMPLETED', 'FAILED', 'CANCELLED', 'DELETED'];

export const cancelExecuting: Check = {
  name: `rule ${RULE}: DELETE of a run being executed cancels it: CANCELLED, still readable, execution stopped, no conversation left open`,
  applies: operationWithRule('run', 'delete', RULE),
  async run(ctx) {
    const testSet = await ctx.world.create('test_set');
    for (let i = 0; i < 3; i++) await ctx.world.create('test_case', { test_set_id: testSet.id });
    const run = await launch(ctx, { test_set_id: testSet.id }, 'launching a run to cancel');
    const id = runIdOf(ctx, run);
    const get = routeOf(ctx, 'run', 'get');
    const path = { [get.params.path[0]!.name]: id };
    const before = recordOf(get, await succeed(ctx, get, { path }, 'reading the launched run'))!;
    if (FINISHED.includes(String(before.status))) skip(`the run finished (${String(before.status)}) before it could be cancelled`);
    await succeed(ctx, ctx.route, { path: { [ctx.route.params.path[0]!.name]: id } }, 'deleting the run being executed');
    const read = async (): Promise<Json> => recordOf(get, await succeed(ctx, get, { path }, 'reading the cancelled run'))!;
    const after = await read();
    if (after.status !== 'CANCELLED') fail(`after DELETE the run being executed is ${show(after.status)}, expected CANCELLED`);
    await new Promise((r) => setTimeout(r, 500));
    const later = await read();
    if (later.status !== 'CANCELLED') fail(`the cancelled run moved on to ${show(later.status)}: its execution did not stop`);
    const list = ctx.world.route('simulation', 'list');
    if (!list) return;
    const listed = await succeed(ctx, list, { query: { filter: `run_id = "${id}"`, page_size: '100' } }, 'listing the cancelled run\'s conversations');
    const sims = (Object.values(listed.body as Json).find(Array.isArray) ?? []) as Json[];
    const open = sims.filter((s) => ['PENDING', 'IN QUEUE', 'IN PROGRESS'].includes(String(s.status)));
    if (open.length > 0) fail(`the cancelled run left ${open.length} conversations open (${open.map((s) => String(s.status)).join(', ')})`);
  },
};

export const checks: Check[] = [cancelExecuting];
