// Record rules of runs (run-pin-versions): a launch checks that what it names exists, pins the current
// version of each resource and starts PENDING; reading a run tells whether it is still on the latest
// configuration (seed Versioning 3, 6 and 8; docs/sandbox.md "Runs").
import { nextPageParam } from '../../paging.js';
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import { recordOf, type Created } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { trackedChange } from '../happy.js';
import {
  controlOf,
  enumOf,
  itemsOf,
  legacyAgentFixture,
  loadFixtures,
  operationWithRule,
  propertySchema,
  read,
  routeOf,
  same,
  show,
  succeed,
  unusedLike,
  versionsOf,
  type FixtureEntry,
  type Json,
  type VersionRef,
} from './records-support.js';

/** The launch body fields that name a resource, with the resource each names. */
const REFERENCES = [
  ['agent_id', 'agent'],
  ['persona_id', 'persona'],
  ['test_set_id', 'test_set'],
] as const;

type Pins = { agent: VersionRef | null; persona: VersionRef | null; test_set: VersionRef | null; metrics: Record<string, VersionRef> };

/** The run's id, under the id property the spec gives runs (`run_id`, facts-shapes 3.13). */
export function runIdOf(ctx: CheckContext, run: Json): string {
  return String(run[ctx.world.resource('run').id]);
}

/** Launches a run; the persona and test set the launch body requires (facts-shapes 2.13 RU1) default to existing ones. */
export async function launch(ctx: CheckContext, body: Json, what: string): Promise<Json> {
  const route = routeOf(ctx, 'run', 'create');
  const full: Json = { ...body };
  for (const [field, resource] of REFERENCES) if (full[field] === undefined) full[field] = (await ctx.world.ensure(resource)).id;
  const run = recordOf(route, await succeed(ctx, route, { body: full }, what));
  if (!run) fail(`${what}: no run in the answer`);
  return run;
}

async function currentVersion(ctx: CheckContext, resource: string, created: Created): Promise<VersionRef | undefined> {
  return (await read(ctx, resource, created.path)).current_version as VersionRef | undefined;
}

/** A tracked change of a resource: it moves to a newer version (seed Versioning 1). */
async function changeTracked(ctx: CheckContext, resource: string, created: Created): Promise<void> {
  const update = routeOf(ctx, resource, 'update');
  const change = await trackedChange(ctx.world, update, ctx.world.resource(resource).versioned!.tracked, await read(ctx, resource, created.path));
  await succeed(ctx, update, { path: created.path, body: change }, `a tracked change of the ${resource}`);
}

export const launchPins: Check = {
  name: 'rule run-pin-versions: a launched run starts PENDING, pinned to the current version of its agent, persona, test set and metrics',
  applies: operationWithRule('run', 'create', 'run-pin-versions'),
  async run(ctx) {
    const made: Record<string, Created> = {};
    for (const [, resource] of REFERENCES) made[resource] = await ctx.world.create(resource);
    const metrics = [await ctx.world.create('metric'), await ctx.world.create('metric')];
    const run = await launch(ctx, { agent_id: made.agent!.id, persona_id: made.persona!.id, test_set_id: made.test_set!.id, metric_ids: metrics.map((m) => m.id) }, 'launching a run');
    // docs/sandbox.md "Runs" (the sandbox's choice): a launched run starts PENDING.
    const pending = enumOf(ctx, propertySchema(ctx, 'run', 'status')).find((s) => s === 'PENDING');
    if (pending !== undefined && run.status !== pending) fail(`a launched run has status ${show(run.status)}, expected PENDING`);
    // The spec's choice (Run.conversation_source): runs launched through POST /runs are SIMULATED.
    const simulated = enumOf(ctx, propertySchema(ctx, 'run', 'conversation_source')).find((s) => s === 'SIMULATED');
    if (simulated !== undefined && run.conversation_source !== simulated) fail(`a launched run has conversation_source ${show(run.conversation_source)}, expected SIMULATED`);
    // Seed Versioning 8: the run records the version of each resource it executes against.
    const pins = run.pinned_versions as Pins;
    for (const [, resource] of REFERENCES) {
      const current = await currentVersion(ctx, resource, made[resource]!);
      const pinned = pins[resource];
      if (!same(pinned, current)) fail(`pinned ${resource} version ${show(pinned)}, the ${resource} is at ${show(current)}`);
    }
    for (const metric of metrics) {
      const current = await currentVersion(ctx, 'metric', metric);
      if (!same(pins.metrics?.[metric.id], current)) fail(`pinned metric ${metric.id} version ${show(pins.metrics?.[metric.id])}, the metric is at ${show(current)}`);
    }
    // Seed Versioning 8: later edits do not change how an existing run is interpreted.
    await changeTracked(ctx, 'agent', made.agent!);
    const get = routeOf(ctx, 'run', 'get');
    const later = recordOf(get, await succeed(ctx, get, { path: { [get.params.path[0]!.name]: runIdOf(ctx, run) } }, 'getting the run'))!;
    if (!same(later.pinned_versions, run.pinned_versions)) fail(`a later edit of the agent changed the run's pins from ${show(run.pinned_versions)} to ${show(later.pinned_versions)}`);
  },
};

export const launchMissing: Check = {
  name: 'rule run-pin-versions: launching with an agent, persona, test set or metric that does not exist is 404 on that field',
  applies: operationWithRule('run', 'create', 'run-pin-versions'),
  async run(ctx) {
    const valid: Json = { metric_ids: [(await ctx.world.ensure('metric')).id] };
    for (const [field, resource] of REFERENCES) valid[field] = (await ctx.world.ensure(resource)).id;
    // docs/sandbox.md "Runs" (the sandbox's choice): launching checks the agent, persona, test set and metrics exist (404 on the field).
    for (const [field] of REFERENCES) {
      const body = { ...valid, [field]: unusedLike(String(valid[field])) };
      expectError(await send(ctx.target, ctx.route, { body }), 404, 'NOT_FOUND', field, `launching with an unknown ${field}`);
    }
    const metricIds = valid.metric_ids as string[];
    const body = { ...valid, metric_ids: [...metricIds, unusedLike(metricIds[0]!)] };
    expectError(await send(ctx.target, ctx.route, { body }), 404, 'NOT_FOUND', 'metric_ids', 'launching with an unknown metric in metric_ids');
    // Without metric_ids the agent's attached metrics are looked up: an unknown agent is still 404 on agent_id.
    const { metric_ids: _omitted, ...withoutMetrics } = valid;
    expectError(await send(ctx.target, ctx.route, { body: { ...withoutMetrics, agent_id: unusedLike(String(valid.agent_id)) } }), 404, 'NOT_FOUND', 'agent_id', 'launching with an unknown agent and no metric_ids');
  },
};

export const launchAgentMetrics: Check = {
  name: "rule run-pin-versions: a launch without metric_ids computes the agent's attached metrics and pins their versions",
  applies: operationWithRule('run', 'create', 'run-pin-versions'),
  async run(ctx) {
    const metrics = [await ctx.world.create('metric'), await ctx.world.create('metric')];
    const agent = await ctx.world.create('agent', { metric_ids: metrics.map((m) => m.id) });
    // The spec's LaunchRunRequest.metric_ids: "when omitted the agent's attached metrics are used".
    const run = await launch(ctx, { agent_id: agent.id }, 'launching a run without metric_ids');
    if (!same(run.metric_ids, metrics.map((m) => m.id))) fail(`a run launched without metric_ids has metric_ids ${show(run.metric_ids)}, the agent has ${show(metrics.map((m) => m.id))} attached`);
    // Seed Versioning 8: the run records the version of each metric it executes against.
    const pins = run.pinned_versions as Pins;
    for (const metric of metrics) {
      const current = await currentVersion(ctx, 'metric', metric);
      if (!same(pins.metrics?.[metric.id], current)) fail(`pinned metric ${metric.id} version ${show(pins.metrics?.[metric.id])}, the metric is at ${show(current)}`);
    }
    // An empty metric_ids is given, not omitted: the run computes no metric.
    const none = await launch(ctx, { agent_id: agent.id, metric_ids: [] }, 'launching a run with an empty metric_ids');
    if (!same(none.metric_ids, []) || !same((none.pinned_versions as Pins).metrics, {})) fail(`a run launched with metric_ids [] has metric_ids ${show(none.metric_ids)} and metric pins ${show((none.pinned_versions as Pins).metrics)}`);
  },
};

export const launchTemplate: Check = {
  name: "rule run-pin-versions: a run_template_id must name a run template of the organization (404 on run_template_id, also for one outside it)",
  applies: operationWithRule('run', 'create', 'run-pin-versions'),
  async run(ctx) {
    const agentId = (await ctx.world.ensure('agent')).id;
    const control = ctx.target.control;
    // Seed (Errors): 404 NOT_FOUND is a missing resource; named on its field like the launch's other references
    // (docs/sandbox.md "Runs", the sandbox's choice).
    if (control) {
      const [templateId] = await loadFixtures(control, [{ kind: 'run_template', data: { agent_id: agentId, active: true } }]);
      const run = await launch(ctx, { agent_id: agentId, run_template_id: templateId }, 'launching a run from a run template');
      if (run.run_template_id !== templateId) fail(`the run names run template ${show(run.run_template_id)}, it was launched from ${templateId}`);
      // A run template outside the organization (the only other one the control plane can place: the platform's)
      // names nothing the organization has.
      const [foreignId] = await loadFixtures(control, [{ kind: 'run_template', platform: true, data: { agent_id: agentId, active: true } }]);
      const references = { persona_id: (await ctx.world.ensure('persona')).id, test_set_id: (await ctx.world.ensure('test_set')).id };
      expectError(await send(ctx.target, ctx.route, { body: { ...references, agent_id: agentId, run_template_id: foreignId } }), 404, 'NOT_FOUND', 'run_template_id', 'launching from a run template outside the organization');
    }
    const missing = unusedLike(agentId);
    const references = { persona_id: (await ctx.world.ensure('persona')).id, test_set_id: (await ctx.world.ensure('test_set')).id };
    expectError(await send(ctx.target, ctx.route, { body: { ...references, agent_id: agentId, run_template_id: missing } }), 404, 'NOT_FOUND', 'run_template_id', 'launching from a run template that does not exist');
  },
};

export const launchFirstVersion: Check = {
  name: 'rule run-pin-versions: a run gives a resource without history its first version; a built-in metric gets none',
  applies: operationWithRule('run', 'create', 'run-pin-versions'),
  async run(ctx) {
    const control = controlOf(ctx, 'load an agent that predates versioning and a built-in metric');
    const builtin = (platform: boolean, isBuiltin: boolean): FixtureEntry => ({
      kind: 'metric',
      platform,
      data: { metric_name: `Built-in ${ctx.world.nextSeed()}`, description: 'built-in', metric_type: enumOf(ctx, propertySchema(ctx, 'metric', 'metric_type'))[0], is_builtin: isBuiltin },
    });
    // docs/sandbox.md "Metrics" (the sandbox's choice): built-in metrics are platform records with is_builtin: true
    // (the control plane's platform records are built-in metrics; the API shows a built-in by is_builtin).
    const [agentId, ...builtinIds] = await loadFixtures(control, [
      legacyAgentFixture(ctx),
      builtin(true, true),
      builtin(true, false),
      builtin(false, true),
    ]);
    const agentPath = { agent_id: agentId! };
    if ((await versionsOf(ctx, 'agent', agentPath)).length !== 0) fail('an agent loaded without history lists versions');
    const run = await launch(ctx, { agent_id: agentId, metric_ids: builtinIds }, 'launching a run of an agent without history');
    const pins = run.pinned_versions as Pins;
    // Seed Versioning 3: resources that predate versioning receive their first version on first use in a run.
    const history = await versionsOf(ctx, 'agent', agentPath);
    const agent = await read(ctx, 'agent', agentPath);
    if (history.length !== 1 || pins.agent?.version_number !== 1) fail(`expected the run to pin a first version 1 of the agent, got pin ${show(pins.agent)} and ${history.length} versions`);
    if (!same(agent.current_version, pins.agent) || history[0]!.ulid !== pins.agent.ulid) fail(`the agent is at ${show(agent.current_version)}, the run pinned ${show(pins.agent)}`);
    // Seed Versioning 6: built-in metrics have no per-organization history, so there is no version to pin.
    for (const builtinId of builtinIds) {
      if (pins.metrics?.[builtinId] !== undefined) fail(`the run pinned a version ${show(pins.metrics[builtinId])} of built-in metric ${builtinId}, which has no history`);
      if ((await versionsOf(ctx, 'metric', { metric_id: builtinId })).length !== 0) fail(`launching a run gave built-in metric ${builtinId} a version`);
    }
  },
};

/** Launches a run against fresh resources where `changed` is one of them, and changes that one afterwards. */
async function runThenChange(ctx: CheckContext, changed: string): Promise<{ run: Json; get: Route; path: Record<string, string> }> {
  const fresh = await ctx.world.create(changed);
  const body: Json = { agent_id: (changed === 'agent' ? fresh : await ctx.world.ensure('agent')).id };
  if (changed === 'persona' || changed === 'test_set') body[`${changed}_id`] = fresh.id;
  if (changed === 'metric') body.metric_ids = [(await ctx.world.ensure('metric')).id, fresh.id];
  const run = await launch(ctx, body, `launching a run that uses a fresh ${changed}`);
  const get = routeOf(ctx, 'run', 'get');
  const path = { [get.params.path[0]!.name]: runIdOf(ctx, run) };
  const before = recordOf(get, await succeed(ctx, get, { path }, 'getting the run'))!;
  // Seed Versioning 8: the run view shows whether a run is still on the latest configuration.
  if (before.on_latest_configuration !== true) fail(`a run read right after its launch has on_latest_configuration ${show(before.on_latest_configuration)}, expected true`);
  await changeTracked(ctx, changed, fresh);
  return { run, get, path };
}

export const latestConfiguration: Check = {
  name: 'rule run-pin-versions: on_latest_configuration turns false once the agent, persona, test set or a metric moves to a newer version',
  applies: operationWithRule('run', 'get', 'run-pin-versions'),
  async run(ctx) {
    for (const changed of ['agent', 'persona', 'test_set', 'metric']) {
      const { run, get, path } = await runThenChange(ctx, changed);
      const after = recordOf(get, await succeed(ctx, get, { path }, 'getting the run'))!;
      if (after.on_latest_configuration !== false) fail(`after a tracked change of its ${changed} the run has on_latest_configuration ${show(after.on_latest_configuration)}, expected false`);
      if (!same(after.pinned_versions, run.pinned_versions)) fail(`a tracked change of the ${changed} changed the run's pins`);
    }
  },
};

export const latestInList: Check = {
  name: 'rule run-pin-versions: the run list shows on_latest_configuration of each run as of now',
  applies: operationWithRule('run', 'list', 'run-pin-versions'),
  async run(ctx) {
    const { run } = await runThenChange(ctx, 'agent');
    const current = await launch(ctx, { agent_id: (await ctx.world.ensure('agent')).id }, 'launching a run on the latest configuration');
    const found = await findInList(ctx, [runIdOf(ctx, run), runIdOf(ctx, current)]);
    // Seed Versioning 8, as for a single run.
    if (found.get(runIdOf(ctx, run))?.on_latest_configuration !== false) fail(`the list shows a run whose agent changed with on_latest_configuration ${show(found.get(runIdOf(ctx, run))?.on_latest_configuration)}, expected false`);
    if (found.get(runIdOf(ctx, current))?.on_latest_configuration !== true) fail(`the list shows an unchanged run with on_latest_configuration ${show(found.get(runIdOf(ctx, current))?.on_latest_configuration)}, expected true`);
  },
};

/** The runs with these ids, from the pages of the list (`ctx.route`) asked with `extra` query parameters. */
export async function findInList(ctx: CheckContext, ids: string[], extra: Record<string, string> = {}): Promise<Map<string, Json>> {
  const found = new Map<string, Json>();
  const paging = ctx.route.pagination;
  let token: string | undefined;
  for (let page = 0; page < 50 && found.size < ids.length; page++) {
    const query: Record<string, string> = { ...extra, ...(paging && token !== undefined ? { [paging.pageToken]: token } : {}) };
    const answer = await succeed(ctx, ctx.route, { query }, 'listing runs');
    for (const item of itemsOf(ctx.route, answer.body)) if (ids.includes(runIdOf(ctx, item))) found.set(runIdOf(ctx, item), item);
    const next = nextPageParam(ctx.route, answer.body);
    if (next === undefined) break;
    token = next;
  }
  for (const id of ids) if (!found.has(id)) fail(`run ${id} is not in the list`);
  return found;
}

export const launchBody: Check = {
  name: "rule run-pin-versions: the launch's metadata gives display_name, metadata and tags; options select, sample and repeat test cases into progress; a test case of another test set is 404",
  applies: operationWithRule('run', 'create', 'run-pin-versions'),
  async run(ctx) {
    // docs/sandbox.md "Runs" (the sandbox's choices for facts-shapes 2.13 RU1).
    const testSet = await ctx.world.create('test_set');
    const cases = [await ctx.world.create('test_case', { test_set_id: testSet.id }), await ctx.world.create('test_case', { test_set_id: testSet.id }), await ctx.world.create('test_case', { test_set_id: testSet.id })];
    const stamp = `t${ctx.world.nextSeed()}`;
    const run = await launch(
      ctx,
      { test_set_id: testSet.id, tags: [`${stamp}-a`], metadata: { display_name: `Run ${stamp}`, customer: { team: stamp }, tags: [`${stamp}-b`, `${stamp}-a`] }, options: { iteration_count: 3, test_case_ids: [cases[0]!.id, cases[2]!.id] } },
      'launching a run with metadata and options',
    );
    const want: Json = { display_name: `Run ${stamp}`, metadata: { team: stamp }, tags: [`${stamp}-a`, `${stamp}-b`], progress: { total_test_cases: 6, completed_test_cases: 0, failed_test_cases: 0, in_progress_test_cases: 0 }, results: null };
    for (const [k, v] of Object.entries(want)) if (!same(run[k], v)) fail(`${k}: expected ${show(v)}, got ${show(run[k])}`);
    const sampled = await launch(ctx, { test_set_id: testSet.id, options: { sub_sample_size: 2 } }, 'launching a sub-sampled run');
    if (!same((sampled.progress as Json | undefined)?.total_test_cases, 2)) fail(`sub_sample_size 2 of 3 cases: total_test_cases ${show((sampled.progress as Json | undefined)?.total_test_cases)}, expected 2`);
    const plain = await launch(ctx, { test_set_id: testSet.id }, 'launching a run without metadata');
    if (plain.display_name !== null || !same(plain.metadata, {}) || !same((plain.progress as Json | undefined)?.total_test_cases, 3)) fail(`a run without metadata or options: display_name ${show(plain.display_name)}, metadata ${show(plain.metadata)}, total_test_cases ${show((plain.progress as Json | undefined)?.total_test_cases)}; expected null, {}, 3`);
    const foreign = await ctx.world.create('test_case');
    const references = { agent_id: (await ctx.world.ensure('agent')).id, persona_id: (await ctx.world.ensure('persona')).id };
    expectError(await send(ctx.target, ctx.route, { body: { ...references, test_set_id: testSet.id, options: { test_case_ids: [cases[1]!.id, foreign.id] } } }), 404, 'NOT_FOUND', 'options.test_case_ids[1]', 'a test case of another test set');
  },
};

export const checks: Check[] = [launchBody, launchPins, launchMissing, launchAgentMetrics, launchTemplate, launchFirstVersion, latestConfiguration, latestInList];
