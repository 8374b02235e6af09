// What a run shows of its outcome (run-pin-versions): a launched run has none yet (the spec's Run fields:
// results "null until the run completes", error "null otherwise", complete_time "null before", metric_values
// "filled as metrics complete"; docs/sandbox.md "Runs": `results`, `error`, `error_status` null until completion),
// and a list asked with include=metric_averages adds each run's mean per metric (the spec's metric_averages:
// "only on list items with include=metric_averages"; docs/sandbox.md "Runs": null when the run has none).
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { controlOf, operationWithRule, routeOf, same, show, succeed, type Json } from './records-support.js';
import { findInList, launch, runIdOf } from './records-runs.js';
import { launchScripted } from './scripted-runs.js';

const RULE = 'run-pin-versions';

export const launchOutcomeEmpty: Check = {
  name: `rule ${RULE}: a launched run without tags, of an agent without metrics, has tags [], metric_ids [], results, error, error_status and complete_time null, metric_values {} and is_public false, also on a later get`,
  applies: operationWithRule('run', 'create', RULE),
  async run(ctx) {
    // An agent with no metrics attached: the launch without metric_ids computes none (LaunchRunRequest.metric_ids:
    // "when omitted the agent's attached metrics are used").
    const agent = await ctx.world.create('agent');
    const attached = agent.record.metric_ids ?? [];
    if (!same(attached, [])) fail(`a new agent has metric_ids ${show(attached)}, expected none attached`);
    // Launched with the target's execution off where it has the switch, so the later get still shows the run before
    // completion (a target that executes it at once may have completed it by then: only the answer is checked).
    const scripted = ctx.target.control?.setRunExecution !== undefined;
    const run = await launchScripted(ctx, () => launch(ctx, { agent_id: agent.id }, 'launching a run'));
    const get = routeOf(ctx, 'run', 'get');
    const read = recordOf(get, await succeed(ctx, get, { path: { [get.params.path[0]!.name]: runIdOf(ctx, run) } }, 'getting the run'))!;
    // is_public: the spec's note "the sandbox sets it false at launch and nothing changes it".
    // Without tags (top-level or in the metadata) the run has none.
    const want: Json = { tags: [], metric_ids: [], results: null, error: null, error_status: null, complete_time: null, metric_values: {}, is_public: false };
    for (const [what, shown] of scripted ? ([['the launch answer', run], ['a get of the run', read]] as const) : ([['the launch answer', run]] as const)) {
      for (const [k, v] of Object.entries(want)) if (!same(shown[k], v)) fail(`${what} shows ${k} ${show(shown[k])}, expected ${show(v)} before completion`);
    }
  },
};

export const metricAverages: Check = {
  name: `rule ${RULE}: a run list with include=metric_averages shows each run's mean per metric (null for a run without values); without include, no metric_averages`,
  applies: operationWithRule('run', 'list', RULE),
  async run(ctx) {
    const control = controlOf(ctx, 'complete a run with metric values');
    const [first, second] = [await ctx.world.create('metric'), await ctx.world.create('metric')];
    const agentId = (await ctx.world.ensure('agent')).id;
    const done = await launchScripted(ctx, () => launch(ctx, { agent_id: agentId, metric_ids: [first.id, second.id] }, 'launching a run to complete'));
    // The control plane's completion: each value is one observation, the run keeps the mean per metric.
    await control.completeRun({ run_id: runIdOf(ctx, done), metric_values: { [first.id]: [1, 2], [second.id]: 4 } });
    const pending = await launchScripted(ctx, () => launch(ctx, { agent_id: agentId, metric_ids: [first.id] }, 'launching a run left pending'));
    // A target that executes it anyway completes it without values through the control plane.
    if (ctx.target.control?.setRunExecution === undefined) await control.completeRun({ run_id: runIdOf(ctx, pending), metric_values: {} });
    const ids = [runIdOf(ctx, done), runIdOf(ctx, pending)];
    const averaged = await findInList(ctx, ids, { include: 'metric_averages' });
    const expected = { [first.id]: 1.5, [second.id]: 4 };
    const shown = averaged.get(ids[0]!)?.metric_averages as Json | null | undefined;
    if (!shown || Object.keys(shown).length !== 2 || Object.entries(expected).some(([k, v]) => shown[k] !== v)) fail(`a completed run lists metric_averages ${show(shown)}, expected ${show(expected)}`);
    const none = averaged.get(ids[1]!)!;
    if (none.metric_averages !== null) fail(`a run without metric values lists metric_averages ${show(none.metric_averages)}, expected null`);
    const plain = await findInList(ctx, ids);
    for (const id of ids) if (plain.get(id)!.metric_averages !== undefined) fail(`without include the list shows metric_averages ${show(plain.get(id)!.metric_averages)} on run ${id}`);
    const get = routeOf(ctx, 'run', 'get');
    const single = recordOf(get, await succeed(ctx, get, { path: { [get.params.path[0]!.name]: ids[0]! }, query: { include: 'metric_averages' } }, 'getting the completed run'))!;
    if (single.metric_averages !== undefined) fail(`a get of the run shows metric_averages ${show(single.metric_averages)}: they are for list items only`);
  },
};

export const unpinnedLatest: Check = {
  name: `rule ${RULE}: a run that pins nothing (completed through the control plane without a launch) is on the latest configuration`,
  applies: operationWithRule('run', 'get', RULE),
  async run(ctx) {
    const control = controlOf(ctx, 'complete a run that was never launched');
    const id = runIdOf(ctx, (await control.completeRun({ metric_values: {} })).run);
    const read = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: { [ctx.route.params.path[0]!.name]: id } }, 'getting the run'))!;
    // The spec's on_latest_configuration: "False once any pinned resource has moved to a newer version"; with
    // nothing pinned (every pin null), nothing has moved.
    if (read.on_latest_configuration !== true) fail(`a run that pins nothing shows on_latest_configuration ${show(read.on_latest_configuration)}, expected true`);
  },
};

export const checks: Check[] = [launchOutcomeEmpty, metricAverages, unpinnedLatest];
