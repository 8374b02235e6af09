// run-pin-versions: a launched run records the version of each resource it executes against (agent,
// persona, test set, metrics) and stays pinned to it; a resource without history gets its first version
// here. Reading a run shows whether it is still on the latest configuration.
import { notFound } from '../errors.js';
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, setOwn } from '../engine/records.js';
import { pinVersion, type VersionRef } from '../engine/versions.js';
import type { Json, StoredRecord } from '../storage/store.js';

function pin(ctx: RequestContext, kind: string, id: unknown, field: string): VersionRef | null {
  if (id === undefined || id === null) return null;
  const record = findRecord(ctx, kind, id, { field });
  const resource = ctx.runtime.resource(kind);
  // A built-in (platform) record has no per-organization history (seed Versioning 6): nothing to pin.
  if (record.org === '*' || record.data.is_builtin === true) return null;
  return resource.versioned ? pinVersion(ctx.runtime, resource, record) : null;
}

function onLatest(ctx: RequestContext, run: StoredRecord): boolean {
  const pinned = run.data.pinned_versions as { agent?: VersionRef | null; persona?: VersionRef | null; test_set?: VersionRef | null; metrics?: Record<string, VersionRef> } | undefined;
  if (!pinned) return true;
  const current = (kind: string, id: unknown): string | undefined => {
    const r = typeof id === 'string' ? ctx.runtime.store.get(kind, id) : undefined;
    return (r?.data.current_version as VersionRef | undefined)?.ulid;
  };
  const same = (ref: VersionRef | null | undefined, kind: string, id: unknown): boolean => !ref || current(kind, id) === ref.ulid;
  return (
    same(pinned.agent, 'agent', run.data.agent_id) &&
    same(pinned.persona, 'persona', run.data.persona_id) &&
    same(pinned.test_set, 'test_set', run.data.test_set_id) &&
    Object.entries(pinned.metrics ?? {}).every(([id, ref]) => same(ref, 'metric', id))
  );
}

export const runPinVersions: Rule = {
  write(ctx, next, previous) {
    if (previous !== undefined) return;
    // LaunchRunRequest.metric_ids: "when omitted the agent's attached metrics are used".
    if (next.metric_ids === undefined && typeof next.agent_id === 'string') {
      const agent = ctx.runtime.store.get('agent', next.agent_id);
      const attached = agent && agent.org === ctx.org ? agent.data.metric_ids : undefined;
      if (Array.isArray(attached)) setOwn(next, 'metric_ids', attached.filter((id): id is string => typeof id === 'string'));
    }
    const metrics: Json = {};
    for (const [i, id] of ((next.metric_ids as string[] | undefined) ?? []).entries()) {
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
    for (const [field, value] of [['status', 'PENDING'], ['metric_ids', []], ['tags', []], ['metric_values', {}], ['complete_time', null], ['conversation_source', 'SIMULATED']] as const) {
      if (next[field] === undefined) setOwn(next, field, value);
    }
  },
  after(ctx, result) {
    for (const run of result.record ? [result.record] : (result.records ?? [])) setOwn(run.data, 'on_latest_configuration', onLatest(ctx, run));
  },
};
