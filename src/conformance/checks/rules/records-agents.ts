// Record rules of agents: the VOICE alias and the customer_agent_id default (agent-normalize), the delete guard
// of active run templates (agent-delete-guard), and revert to the current version (version-revert).
import { expectEnvelope, expectError, send } from '../../http.js';
import { fail, lacks } from '../../result.js';
import { bodyProperties, ownParam, recordOf } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { trackedChange } from '../happy.js';
import { controlOf, enumOf, legacyAgentFixture, loadFixtures, operationWithRule, propertySchema, read, routeOf, same, show, succeed, unusedLike, versionsOf, type Json, type VersionRef } from './records-support.js';

/**
 * The input-only model types with the stored value each stands for: the seed saw `VOICE` in a create request
 * and MODEL_TYPE_VOICE in responses, so an input value missing from the response enum is the alias of
 * `MODEL_TYPE_<value>`.
 */
function modelTypeAliases(ctx: CheckContext): [string, string][] {
  const input = enumOf(ctx, bodyProperties(ctx.suite, ctx.route).properties.model_type).map(String);
  const output = enumOf(ctx, propertySchema(ctx, 'agent', 'model_type')).map(String);
  const pairs = input.filter((v) => !output.includes(v)).map((v): [string, string] => [v, `MODEL_TYPE_${v}`]);
  const known = pairs.filter(([, stored]) => output.includes(stored));
  if (known.length === 0) lacks('the spec has no input-only model type alias (such as VOICE)');
  return known;
}

export const agentNormalizeCreate: Check = {
  name: 'rule agent-normalize: a create with VOICE answers MODEL_TYPE_VOICE; customer_agent_id defaults to the agent id',
  applies: operationWithRule('agent', 'create', 'agent-normalize'),
  async run(ctx) {
    for (const [alias, stored] of modelTypeAliases(ctx)) {
      // Seed (Agent.model_type): MODEL_TYPE_VOICE in responses, VOICE in a create request.
      const body = await ctx.world.bodyFor(ctx.route, { model_type: alias, customer_agent_id: undefined });
      const agent = recordOf(ctx.route, await succeed(ctx, ctx.route, { body }, `creating an agent with model_type ${alias}`))!;
      if (agent.model_type !== stored) fail(`model_type ${alias} was answered as ${show(agent.model_type)}, expected ${stored}`);
      // docs/sandbox.md "Agents" (the sandbox's choice): customer_agent_id defaults to the agent's id.
      if (agent.customer_agent_id !== agent.id) fail(`without customer_agent_id the agent answered ${show(agent.customer_agent_id)}, expected its id ${show(agent.id)}`);
      const shown = await read(ctx, 'agent', { agent_id: String(agent.id) });
      if (shown.model_type !== stored) fail(`a get shows model_type ${show(shown.model_type)}, expected ${stored} (stored normalised)`);
    }
    const chosen = `customer-${ctx.world.nextSeed()}`;
    const own = recordOf(ctx.route, await succeed(ctx, ctx.route, { body: await ctx.world.bodyFor(ctx.route, { customer_agent_id: chosen }) }, 'creating an agent with customer_agent_id'))!;
    // Seed (Agent): customer_agent_id is the client-chosen identifier, so a given one is kept.
    if (own.customer_agent_id !== chosen) fail(`customer_agent_id ${chosen} was answered as ${show(own.customer_agent_id)}`);
  },
};

export const agentNormalizeUpdate: Check = {
  name: 'rule agent-normalize: an update with VOICE stores MODEL_TYPE_VOICE, and on a voice agent records no version',
  applies: operationWithRule('agent', 'update', 'agent-normalize'),
  async run(ctx) {
    for (const [alias, stored] of modelTypeAliases(ctx)) {
      const agent = await ctx.world.create('agent', { model_type: stored });
      const before = await versionsOf(ctx, 'agent', agent.path);
      const answer = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: agent.path, body: { model_type: alias } }, `updating model_type to ${alias}`))!;
      if (answer.model_type !== stored) fail(`model_type ${alias} was answered as ${show(answer.model_type)}, expected ${stored}`);
      // Seed Versioning 2: a save with no meaningful change creates no version; VOICE is MODEL_TYPE_VOICE.
      const after = await versionsOf(ctx, 'agent', agent.path);
      if (after.length !== before.length) fail(`model_type ${alias} on an agent already at ${stored} recorded a version (${before.length} -> ${after.length})`);
      const shown = await read(ctx, 'agent', agent.path);
      if (shown.customer_agent_id !== agent.record.customer_agent_id) fail(`an update without customer_agent_id changed it from ${show(agent.record.customer_agent_id)} to ${show(shown.customer_agent_id)}`);
    }
  },
};

export const agentDeleteGuard: Check = {
  name: 'rule agent-delete-guard: an agent named by an active run template (agent_id or agent_ids) is 400 on agent_id; an inactive one does not block',
  applies: operationWithRule('agent', 'delete', 'agent-delete-guard'),
  async run(ctx) {
    const control = controlOf(ctx, 'load run templates');
    const [single, listed, other, freed] = [await ctx.world.create('agent'), await ctx.world.create('agent'), await ctx.world.create('agent'), await ctx.world.create('agent')];
    // docs/sandbox.md "Agents" (the sandbox's choice): templates with `active` not false count, by agent_id or agent_ids.
    await control.loadFixtures([
      { kind: 'run_template', data: { agent_id: single.id, active: true } },
      { kind: 'run_template', data: { agent_ids: [other.id, listed.id] } },
      { kind: 'run_template', data: { agent_id: freed.id, active: false } },
    ]);
    const param = ownParam(ctx.route)!;
    for (const [agent, how] of [[single, 'agent_id of an active template'], [listed, 'agent_ids of a template without active: false']] as const) {
      // Seed (Agents; Errors 7): the agent must not be referenced by active templates; 400 INVALID_ARGUMENT.
      const refused = await send(ctx.target, ctx.route, { path: agent.path });
      expectError(refused, 400, 'INVALID_ARGUMENT', param, `deleting an agent named in the ${how}`);
      expectEnvelope(refused, `deleting an agent named in the ${how}`);
      await read(ctx, 'agent', agent.path);
    }
    await succeed(ctx, ctx.route, { path: freed.path }, 'deleting an agent named only by an inactive template');
    const get = routeOf(ctx, 'agent', 'get');
    expectError(await send(ctx.target, get, { path: freed.path }), 404, 'NOT_FOUND', undefined, 'get after the delete');
  },
};

export const versionRevertCurrent: Check = {
  name: 'rule version-revert: reverting to the current version is 400 on the version and changes nothing; an unknown version or resource is 404 on its parameter',
  applies: operationWithRule('agent', 'revert', 'version-revert'),
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const versionParam = ctx.route.params.path.find((p) => p.name !== ownParam(ctx.route))?.name;
    const update = ctx.world.route(resource.name, 'update');
    if (!versionParam || !update || !resource.versioned) lacks('the revert operation has no version parameter or the resource no update');
    const created = await ctx.world.create(resource.name);
    const change = await trackedChange(ctx.world, update, resource.versioned.tracked, await read(ctx, resource.name, created.path));
    await succeed(ctx, update, { path: created.path, body: change }, 'a tracked change');
    const current = (await read(ctx, resource.name, created.path)).current_version as VersionRef;
    const history = await versionsOf(ctx, resource.name, created.path);
    // Seed (States: revert to version V while live at V is 400, unchanged; Errors 1).
    const refused = await send(ctx.target, ctx.route, { path: { ...created.path, [versionParam]: current.ulid } });
    expectError(refused, 400, 'INVALID_ARGUMENT', versionParam, 'reverting to the current version');
    expectEnvelope(refused, 'reverting to the current version');
    const after = await read(ctx, resource.name, created.path);
    if (!same(after.current_version, current)) fail(`a refused revert moved current_version from ${show(current)} to ${show(after.current_version)}`);
    if ((await versionsOf(ctx, resource.name, created.path)).length !== history.length) fail('a refused revert recorded a version');
    // docs/sandbox.md "Agents" (the sandbox's choice): a version that does not exist is 404 on version_id.
    const unknown = unusedLike(current.ulid);
    expectError(await send(ctx.target, ctx.route, { path: { ...created.path, [versionParam]: unknown } }), 404, 'NOT_FOUND', versionParam, 'reverting to a version that does not exist');
    // A resource that does not exist is 404, named on its path parameter as every lookup by path id is (the
    // sandbox's choice; docs/sandbox.md "Runs" names the field the same way).
    const ownId = ownParam(ctx.route)!;
    expectError(await send(ctx.target, ctx.route, { path: { ...created.path, [ownId]: unusedLike(created.path[ownId]!), [versionParam]: current.ulid } }), 404, 'NOT_FOUND', ownId, `reverting a ${resource.name} that does not exist`);
    // An agent that predates versioning has no version to revert to (seed Versioning 3): 404 as well.
    const control = ctx.target.control;
    if (control && resource.name === 'agent') {
      const [legacy] = await loadFixtures(control, [legacyAgentFixture(ctx)]);
      const path = { [ownParam(ctx.route)!]: legacy!, [versionParam]: unknown };
      expectError(await send(ctx.target, ctx.route, { path }), 404, 'NOT_FOUND', versionParam, 'reverting an agent without history');
    }
    // Seed (States): any version other than the current one may be reverted to.
    const oldest = history[history.length - 1] as Json;
    const reverted = recordOf(ctx.route, await succeed(ctx, ctx.route, { path: { ...created.path, [versionParam]: String(oldest.ulid) } }, 'reverting to the first version'));
    if ((reverted?.current_version as VersionRef | undefined)?.change_type !== 'revert') fail(`expected a revert version, got ${show(reverted?.current_version)}`);
  },
};

export const checks: Check[] = [agentNormalizeCreate, agentNormalizeUpdate, agentDeleteGuard, versionRevertCurrent];
