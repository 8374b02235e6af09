// run-pin-versions: a launched run records the version of each resource it executes against (agent,
// persona, test set, metrics and persona_metrics) and stays pinned to it; a resource without history gets its
// first version here. The launch body is read as the service's client sends it (facts-shapes 2.13 RU1):
// metadata.display_name becomes the run's display_name, metadata.customer its metadata, metadata.tags join the
// top-level tags; options select the test cases (runs/select-cases.ts: test_case_ids must belong to the test set,
// 404 on the item; a seeded sub-sample), repeated iteration_count times, which gives progress.total_test_cases;
// mutation_id(s) are kept with the run but not answered (the sandbox has no mutations), metadata.created_by is kept
// for the job_complete message only. The launched run is queued for the executor (issue 25). Reading a
// run shows whether it is still on the latest configuration, and a list with include=metric_averages each run's
// metric means.
import { notFound } from '../errors.js';
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, setOwn } from '../engine/records.js';
import { bodyOf, writtenData } from '../engine/request-parts.js';
import { pinVersion, type VersionRef } from '../engine/versions.js';
import type { Json } from '../storage/store.js';
import { isJsonObject, PLATFORM_ORG } from '../storage/store.js';
import { asResource, getRecord, type RecordOf } from '../storage/typed.js';
import { executionMode } from '../runs/execution-mode.js';
import { enqueueRun } from '../runs/run-queue.js';
import { selectCases } from '../runs/select-cases.js';
import type { LaunchRunMetadata, PinnedVersions, Run } from '../../../generated/client/types.js';

/** The version to pin of the resource named by `id` (the launch body requires agent, persona and test set). */
function pin(ctx: RequestContext, kind: string, id: unknown, field: string): VersionRef | null {
  const record = findRecord(ctx, kind, id, { field });
  const resource = ctx.runtime.resource(kind);
  // A built-in (platform) record has no per-organization history (seed Versioning 6): nothing to pin.
  if (record.org === PLATFORM_ORG || record.data.is_builtin === true) return null;
  // Agents, personas, test sets and metrics are all versioned (seed Versioning).
  return pinVersion(ctx.runtime, resource, record);
}

function onLatest(ctx: RequestContext, run: RecordOf<'run'>): boolean {
  // A run stored before pinning existed (a fixture) has none: nothing pinned, nothing moved.
  const pinned: Partial<PinnedVersions> = run.data.pinned_versions ?? {};
  // A pin exists only for a resource the launch named by its (string) id; pinning gave it a current version.
  const current = (kind: 'agent' | 'persona' | 'test_set' | 'metric', id: unknown): string | undefined => getRecord(ctx.runtime.store, kind, String(id))?.data.current_version!.ulid;
  const same = (ref: VersionRef | null | undefined, kind: 'agent' | 'persona' | 'test_set' | 'metric', id: unknown): boolean => !ref || current(kind, id) === ref.ulid;
  return (
    same(pinned.agent, 'agent', run.data.agent_id) &&
    same(pinned.persona, 'persona', run.data.persona_id) &&
    same(pinned.test_set, 'test_set', run.data.test_set_id) &&
    Object.entries(pinned.metrics ?? {}).every(([id, ref]) => same(ref, 'metric', id))
  );
}

/** The launch's metadata object moves to display_name, metadata (its customer map) and tags. */
function readLaunchMetadata(next: Run & Json, launch: LaunchRunMetadata): void {
  setOwn(next, 'display_name', typeof launch.display_name === 'string' ? launch.display_name : null);
  setOwn(next, 'metadata', launch.customer ?? {});
  const tags = [...(next.tags ?? []), ...(launch.tags ?? [])];
  setOwn(next, 'tags', [...new Set(tags)]);
}

export const runPinVersions: Rule = {
  // Named on the launch (createRun), the tag update and reads: only the launch writes a new run.
  write(ctx, next, previous) {
    if (previous !== undefined) return;
    const run = writtenData(ctx, 'run', next);
    const launch = bodyOf(ctx, 'launchRun');
    readLaunchMetadata(run, launch.metadata ?? {});
    // LaunchRunRequest.metric_ids: "when omitted the agent's attached metrics are used" (agent_id is required;
    // an agent the organization cannot see is 404 on agent_id, as it is when metric_ids is given).
    // An agent's metric_ids is always a list (the create default is []).
    if (next.metric_ids === undefined) setOwn(next, 'metric_ids', findRecord(ctx, 'agent', next.agent_id, { field: 'agent_id' }).data.metric_ids);
    // status (PENDING) and is_public (false) are the schema's defaults; tags were set from the metadata above. The
    // fields below are readOnly, so the launch body never carries them.
    for (const [field, value] of [['metric_values', {}], ['complete_time', null], ['conversation_source', 'SIMULATED']] as const) setOwn(next, field, value);
    const metrics: Json = {};
    for (const [field, ids] of [['metric_ids', run.metric_ids], ['persona_metrics', launch.persona_metrics]] as const) {
      for (const [i, id] of (ids ?? []).entries()) {
        const ref = pin(ctx, 'metric', id, `${field}[${i}]`);
        if (ref) setOwn(metrics, id, ref);
      }
    }
    setOwn(next, 'pinned_versions', {
      agent: pin(ctx, 'agent', next.agent_id, 'agent_id'),
      persona: pin(ctx, 'persona', next.persona_id, 'persona_id'),
      test_set: pin(ctx, 'test_set', next.test_set_id, 'test_set_id'),
      metrics,
    });
    // The one selection rule (runs/select-cases.ts); the chosen ids are kept (bookkeeping, not in the schema) so the
    // executor runs exactly what total_test_cases counts.
    const selection = selectCases(ctx.runtime.store, ctx.org, next.test_set_id, isJsonObject(next.options) ? next.options : {});
    setOwn(next, 'selected_test_case_ids', selection.caseIds);
    setOwn(next, 'iterations', selection.iterations);
    if (typeof launch.metadata?.created_by === 'string') setOwn(next, 'created_by', launch.metadata.created_by);
    setOwn(next, 'progress', { total_test_cases: selection.caseIds.length * selection.iterations, completed_test_cases: 0, failed_test_cases: 0, in_progress_test_cases: 0 });
    for (const field of ['results', 'error', 'error_status']) setOwn(next, field, null);
    if (typeof next.run_template_id === 'string') {
      const template = ctx.runtime.store.get('run_template', next.run_template_id);
      if (!template || template.org !== ctx.org) throw notFound('run_template_id', 'run template');
    }
    // Queued for execution in this transaction (a refused launch queues nothing), unless the organization is in
    // manual mode, where only the control plane completes runs (runs/execution-mode.ts).
    if (executionMode(ctx.runtime.store, ctx.org) === 'automatic') {
      enqueueRun(ctx.runtime.store, String(next.run_id), ctx.org);
      ctx.runtime.runs?.wake();
    }
  },
  after(ctx, result) {
    // A launch, an update or a get answers one run, the list its page of runs (the answer only: nothing is stored).
    // Only the list declares `include`, so only list items get metric_averages.
    const averages = ctx.query.include === 'metric_averages';
    for (const record of result.record ? [result.record] : result.records!) {
      const run = asResource('run', record);
      setOwn(run.data, 'on_latest_configuration', onLatest(ctx, run));
      if (averages) {
        const values = run.data.metric_values ?? {};
        setOwn(run.data, 'metric_averages', Object.keys(values).length > 0 ? values : null);
      }
    }
  },
};
