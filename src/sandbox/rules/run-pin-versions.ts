// run-pin-versions: a launched run records the version of each resource it executes against (agent,
// persona, test set, metrics) and stays pinned to it; a resource without history gets its first version
// here. Reading a run shows whether it is still on the latest configuration.
import { notFound } from '../errors.js';
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, setOwn } from '../engine/records.js';
import { pinVersion, type VersionRef } from '../engine/versions.js';
import type { Json, StoredRecord } from '../storage/store.js';

/** The version to pin of the resource named by `id`, or null when none is named (createRun drops null fields). */
function pin(ctx: RequestContext, kind: string, id: unknown, field: string): VersionRef | null {
  if (id === undefined) return null;
  const record = findRecord(ctx, kind, id, { field });
  const resource = ctx.runtime.resource(kind);
  // A built-in (platform) record has no per-organization history (seed Versioning 6): nothing to pin.
  if (record.org === '*' || record.data.is_builtin === true) return null;
  return resource.versioned ? pinVersion(ctx.runtime, resource, record) : null;
}

function onLatest(ctx: RequestContext, run: StoredRecord): boolean {
  const pinned = run.data.pinned_versions as { agent?: VersionRef | null; persona?: VersionRef | null; test_set?: VersionRef | null; metrics?: Record<string, VersionRef> } | undefined;
  if (!pinned) return true;
  // A pin exists only for a resource the launch named by its (string) id.
  const current = (kind: string, id: unknown): string | undefined => (ctx.runtime.store.get(kind, String(id))?.data.current_version as VersionRef | undefined)?.ulid;
  const same = (ref: VersionRef | null | undefined, kind: string, id: unknown): boolean => !ref || current(kind, id) === ref.ulid;
  return (
    same(pinned.agent, 'agent', run.data.agent_id) &&
    same(pinned.persona, 'persona', run.data.persona_id) &&
    same(pinned.test_set, 'test_set', run.data.test_set_id) &&
    Object.entries(pinned.metrics ?? {}).every(([id, ref]) => same(ref, 'metric', id))
  );
}

export const runPinVersions: Rule = {
  // Named on the launch (createRun) and on reads only: the one write is a new run.
  write(ctx, next) {
    // LaunchRunRequest.metric_ids: "when omitted the agent's attached metrics are used" (agent_id is required;
    // an agent the organization cannot see is 404 on agent_id, as it is when metric_ids is given).
    if (next.metric_ids === undefined) setOwn(next, 'metric_ids', findRecord(ctx, 'agent', next.agent_id, { field: 'agent_id' }).data.metric_ids);
    for (const [field, value] of [['status', 'PENDING'], ['metric_ids', []], ['tags', []], ['metric_values', {}], ['complete_time', null], ['conversation_source', 'SIMULATED']] as const) {
      if (next[field] === undefined) setOwn(next, field, value);
    }
    const metrics: Json = {};
    for (const [i, id] of (next.metric_ids as string[]).entries()) {
      const ref = pin(ctx, 'metric', id, `metric_ids[${i}]`);
      if (ref) setOwn(metrics, id, ref);
    }
    setOwn(next, 'pinned_versions', {
      agent: pin(ctx, 'agent', next.agent_id, 'agent_id'),
      persona: pin(ctx, 'persona', next.persona_id, 'persona_id'),
      test_set: pin(ctx, 'test_set', next.test_set_id, 'test_set_id'),
      metrics,
    });
    if (typeof next.run_template_id === 'string') {
      const template = ctx.runtime.store.get('run_template', next.run_template_id);
      if (!template || template.org !== ctx.org) throw notFound('run_template_id', 'run template');
    }
  },
  after(ctx, result) {
    // A launch or a get answers one run, the list its page of runs.
    for (const run of result.record ? [result.record] : result.records!) setOwn(run.data, 'on_latest_configuration', onLatest(ctx, run));
  },
};
