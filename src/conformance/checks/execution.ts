// Runs at work (issue 25; facts 2.17): a launched run is executed by the target and finishes within a configurable
// time (Target.runTimeoutMs), with one simulated conversation per selected test case and iteration, progress that
// never counts more than its total and ends whole, and results whose values name the run's conversations and are
// of the service's types (a number, a string or a list of strings), failed conversations left out of them.
import { expectSuccess, send } from '../http.js';
import { fail, lacks } from '../result.js';
import { recordOf } from '../world.js';
import type { Check, CheckContext } from './context.js';

type Json = Record<string, unknown>;

const DEFAULT_RUN_TIMEOUT_MS = 45_000;
const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);
const ITERATIONS = 2;

interface Progress {
  total_test_cases?: number;
  completed_test_cases?: number;
  failed_test_cases?: number;
  in_progress_test_cases?: number;
}

function consistent(progress: Progress | null | undefined, total: number): string | null {
  if (!progress) return null;
  const done = (progress.completed_test_cases ?? 0) + (progress.failed_test_cases ?? 0) + (progress.in_progress_test_cases ?? 0);
  if (progress.total_test_cases !== total) return `progress.total_test_cases is ${String(progress.total_test_cases)}, expected ${total}`;
  if (done > total) return `progress counts ${done} conversations of ${total}`;
  return null;
}

function validValue(value: unknown): boolean {
  return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
}

async function pollRun(ctx: CheckContext, runId: string, total: number): Promise<Json> {
  const get = ctx.world.route('run', 'get') ?? lacks('the spec has no run get');
  const limit = ctx.target.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const end = Date.now() + limit;
  let last: Json = {};
  for (;;) {
    const answer = await send(ctx.target, get, { path: { [get.params.path[0]!.name]: runId } });
    expectSuccess(answer, get, 'reading the launched run');
    last = recordOf(get, answer)!;
    const problem = consistent(last.progress as Progress | null, total);
    if (problem) fail(`while the run was ${String(last.status)}: ${problem}`);
    if (FINISHED.has(String(last.status))) return last;
    if (Date.now() > end) fail(`the launched run did not finish within ${limit} ms (last status ${String(last.status)}, progress ${JSON.stringify(last.progress)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const runExecutes: Check = {
  name: `execution: a launched run completes in time, with one conversation per selected test case and iteration (${ITERATIONS} iterations), progress consistent and results of the service's types`,
  needs: 'a run create operation and a simulation list',
  applies: (route, suite) => route.resource === 'run' && route.action === 'create' && suite.routes.some((r) => r.resource === 'simulation' && r.action === 'list'),
  async run(ctx) {
    const testSet = await ctx.world.create('test_set');
    const cases = [await ctx.world.create('test_case', { test_set_id: testSet.id }), await ctx.world.create('test_case', { test_set_id: testSet.id })];
    const agent = await ctx.world.ensure('agent');
    const persona = await ctx.world.ensure('persona');
    const launched = await send(ctx.target, ctx.route, { body: { agent_id: agent.id, persona_id: persona.id, test_set_id: testSet.id, options: { iteration_count: ITERATIONS } } });
    expectSuccess(launched, ctx.route, 'launching a run');
    const runId = String(recordOf(ctx.route, launched)![ctx.world.resource('run').id]);
    const total = cases.length * ITERATIONS;
    const run = await pollRun(ctx, runId, total);
    if (run.status !== 'COMPLETED') fail(`the run finished ${String(run.status)} (error ${JSON.stringify(run.error)}), expected COMPLETED`);
    const progress = run.progress as Progress;
    if ((progress.completed_test_cases ?? 0) + (progress.failed_test_cases ?? 0) !== total || progress.in_progress_test_cases !== 0) fail(`a completed run shows progress ${JSON.stringify(progress)}, expected all ${total} conversations finished`);

    const list = ctx.world.route('simulation', 'list')!;
    const listed = await send(ctx.target, list, { query: { filter: `run_id = "${runId}"`, page_size: '100' } });
    expectSuccess(listed, list, 'listing the run\'s simulations');
    const sims = (Object.values(listed.body as Json).find(Array.isArray) ?? []) as Json[];
    if (sims.length !== total) fail(`the run has ${sims.length} simulated conversations, expected ${total} (${cases.length} test cases x ${ITERATIONS})`);
    for (const c of cases) {
      const n = sims.filter((s) => s.test_case_id === c.id).length;
      if (n !== ITERATIONS) fail(`test case ${c.id} has ${n} conversations, expected ${ITERATIONS}`);
    }
    const failed = new Set(sims.filter((s) => s.status === 'FAILED').map((s) => String(s.simulation_id)));
    if (sims.some((s) => s.status !== 'COMPLETED' && s.status !== 'FAILED')) fail(`a completed run has conversations still ${sims.map((s) => String(s.status)).join(', ')}`);
    if (failed.size !== (progress.failed_test_cases ?? 0)) fail(`progress counts ${String(progress.failed_test_cases)} failed conversations, the list ${failed.size}`);
    if (failed.size > 0 && run.error_status !== 'EXECUTION_FAILURE') fail(`a run with failed conversations has error_status ${JSON.stringify(run.error_status)}, expected EXECUTION_FAILURE`);

    const results = run.results as { output_ids?: unknown[]; metrics?: Record<string, Json> } | null;
    if (!results || !Array.isArray(results.output_ids)) fail(`a completed run has results ${JSON.stringify(results)}, expected output_ids`);
    const ids = new Set(sims.map((s) => String(s.simulation_id)));
    if (results.output_ids.length !== ids.size || results.output_ids.some((id) => !ids.has(String(id)))) fail(`results.output_ids ${JSON.stringify(results.output_ids)} are not the run's conversations`);
    for (const [metricId, m] of Object.entries(results.metrics ?? {})) {
      if (m.metric_id !== metricId || !['float', 'string', 'set'].includes(String(m.output_type))) fail(`results.metrics.${metricId} is ${JSON.stringify(m).slice(0, 200)}`);
      for (const v of (m.values as Json[] | undefined) ?? []) {
        if (!ids.has(String(v.simulation_output_id)) || failed.has(String(v.simulation_output_id))) fail(`results.metrics.${metricId} has a value of ${String(v.simulation_output_id)}, not a completed conversation of the run`);
        if (!validValue(v.value)) fail(`results.metrics.${metricId} has the value ${JSON.stringify(v.value)}: not a number, a string or a list of strings`);
      }
    }
    for (const [metricId, v] of Object.entries((run.metric_values as Json | null) ?? {})) if (typeof v !== 'number') fail(`metric_values.${metricId} is ${JSON.stringify(v)}, expected a number`);
  },
};
