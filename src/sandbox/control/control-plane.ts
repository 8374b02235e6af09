// The control plane: not part of the API. Served under /control, guarded by the admin token
// (`Authorization: Bearer <token>`), described by control/openapi.yaml. It creates organizations and keys,
// loads fixtures, completes runs (raising run.completed), sets whether runs execute by themselves (run-execution),
// shows what the sandbox sent, and resets state.
import { timingSafeEqual } from 'node:crypto';
import { ApiFailure, invalid, notFound } from '../errors.js';
import { alnum } from '../ids.js';
import type { SandboxRequest, SandboxResponse } from '../http/exchange.js';
import { checkJsonDepth } from '../http/json-depth.js';
import { json } from '../http/respond.js';
import type { RaisedEvent, Runtime } from '../engine/context.js';
import { newRecordData, present, setOwn, stampUpdated } from '../engine/records.js';
import { createApiKey, createOrganization } from '../organizations.js';
import type { Json } from '../storage/store.js';
import { PLATFORM_ORG } from '../storage/store.js';
import { finishRun } from '../runs/complete.js';
import { closeOpenSimulations } from '../runs/simulations.js';
import { changeFixture, loadFixtures, removeFixture, type FixtureEntry } from './fixtures.js';
import { scriptMetricAnswers } from './metric-answers.js';
import { handleFaults } from './faults.js';
import type { FaultInjector } from '../faults/injector.js';
import { changeRunExecution, readRunExecution } from './run-execution.js';

export interface ControlDeps {
  runtime: Runtime;
  adminToken: string;
  publish(events: RaisedEvent[]): Promise<void>;
  idle(): Promise<void>;
  reset(): void;
  /** Faults on demand (issue 29): this instance's injector. */
  faults: FaultInjector;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function body(request: SandboxRequest): Promise<Json> {
  const bytes = await request.bytes();
  if (bytes === null) throw invalid(null, 'request body is too large');
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(null, 'request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(null, 'request body must be a JSON object');
  checkJsonDepth(value);
  return value as Json;
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalid(field, 'must be an array of strings');
  return value as string[];
}

function requireOrg(runtime: Runtime, id: string): void {
  if (!runtime.store.getOrganization(id)) throw notFound('organization_id', 'organization');
}

export async function handleControl(deps: ControlDeps, request: SandboxRequest, path: string): Promise<SandboxResponse> {
  const url = request.url;
  const { runtime } = deps;
  try {
    const auth = request.headers.get('authorization') ?? '';
    const token = /^Bearer\s+(.+)$/i.exec(auth)?.[1] ?? '';
    if (!sameSecret(token, deps.adminToken)) {
      throw new ApiFailure(401, 'UNAUTHENTICATED', 'Authentication failed.', [{ field: 'Authorization', description: 'missing or unknown admin token' }]);
    }
    const parts = path.split('/').filter((s) => s !== '');
    const method = request.method.toUpperCase();
    // Parameters: the organization after `organizations`, a fixture's kind and id after `fixtures`.
    const names = (p: string, i: number): string => (parts[i - 1] === 'organizations' ? '{id}' : parts[i - 1] === 'fixtures' ? '{kind}' : parts[i - 2] === 'fixtures' ? '{record_id}' : p);
    const route = `${method} /${parts.map(names).join('/')}`;
    const orgId = parts[0] === 'organizations' ? parts[1] : undefined;

    switch (route) {
      case 'GET /health':
        return json(200, { status: 'ok' });
      case 'POST /organizations': {
        const b = await body(request);
        if (b.display_name !== undefined && (typeof b.display_name !== 'string' || b.display_name.length === 0 || b.display_name.length > 200)) {
          throw invalid('display_name', 'must be a string of 1-200 characters');
        }
        const created = createOrganization(runtime, (b.display_name as string | undefined) ?? `Organization ${alnum(6)}`);
        return json(201, created);
      }
      case 'POST /organizations/{id}/api-keys': {
        requireOrg(runtime, orgId!);
        const b = await body(request);
        const permissions = stringList(b.permissions, 'permissions');
        return json(201, { api_key: createApiKey(runtime, orgId!, permissions) });
      }
      case 'POST /organizations/{id}/fixtures': {
        requireOrg(runtime, orgId!);
        const b = await body(request);
        if (!Array.isArray(b.records)) throw invalid('records', 'must be an array of fixture records');
        return json(201, { records: loadFixtures(runtime, orgId!, b.records as FixtureEntry[]) });
      }
      case 'PATCH /organizations/{id}/fixtures/{kind}/{record_id}': {
        requireOrg(runtime, orgId!);
        return json(200, changeFixture(runtime, orgId!, decodeURIComponent(parts[3]!), decodeURIComponent(parts[4]!), await body(request)));
      }
      case 'DELETE /organizations/{id}/fixtures/{kind}/{record_id}': {
        requireOrg(runtime, orgId!);
        removeFixture(runtime, orgId!, decodeURIComponent(parts[3]!), decodeURIComponent(parts[4]!));
        return json(200, {});
      }
      case 'POST /organizations/{id}/default-workspace/archive': {
        requireOrg(runtime, orgId!);
        return json(200, { workspace: archiveDefaultWorkspace(runtime, orgId!) });
      }
      case 'POST /organizations/{id}/metric-answers':
        return json(200, scriptMetricAnswers(runtime, orgId!, await body(request)));
      case 'GET /organizations/{id}/run-execution':
        requireOrg(runtime, orgId!);
        return json(200, readRunExecution(runtime, orgId!));
      case 'PUT /organizations/{id}/run-execution':
        requireOrg(runtime, orgId!);
        return json(200, changeRunExecution(runtime, orgId!, await body(request)));
      case 'POST /organizations/{id}/run-completions': {
        requireOrg(runtime, orgId!);
        const b = await body(request);
        const result = completeRun(runtime, orgId!, b);
        await deps.publish([result.event]);
        if (b.wait_for_deliveries === true) await deps.idle();
        const run = runtime.store.get('run', result.runId)!;
        const sent = runtime.store.listSent({ org: orgId! }).filter((s) => (s.data as { run_id?: string }).run_id === result.runId);
        return json(200, { run: present(runtime.resource('run'), run), sent: sent.map((s) => ({ id: s.id, kind: s.kind, ...s.data })) });
      }
      case 'GET /sent': {
        if (url.searchParams.get('wait') !== 'false') await deps.idle();
        const org = url.searchParams.get('organization_id') ?? undefined;
        const kind = url.searchParams.get('kind') ?? undefined;
        return json(200, { items: runtime.store.listSent({ org, kind }).map((s) => ({ id: s.id, kind: s.kind, organization_id: s.org, ...s.data })) });
      }
      case 'GET /faults': case 'PUT /faults': case 'DELETE /faults': return await handleFaults(deps.faults, runtime, method, () => body(request));
      case 'POST /reset':
        await deps.idle();
        deps.reset();
        return json(200, {});
      default:
        throw notFound(null, 'control operation');
    }
  } catch (error) {
    if (error instanceof ApiFailure) return json(error.status, error.body());
    throw error;
  }
}

/**
 * Archives the organization's DEFAULT workspace, which the API refuses (seed: default workspaces cannot be
 * changed). Afterwards a call without X-Service-Workspace-Id resolves no workspace (docs/sandbox.md "Scoping").
 * Idempotent; the workspace as the API shows it.
 */
function archiveDefaultWorkspace(runtime: Runtime, org: string): Json {
  return runtime.store.transaction(() => {
    const id = runtime.store.getOrganization(org)!.default_workspace_id;
    const workspace = runtime.store.get('workspace', id)!;
    if (workspace.data.status !== 'ARCHIVED') {
      setOwn(workspace.data, 'status', 'ARCHIVED');
      stampUpdated(runtime.resource('workspace'), workspace.data, runtime.clock.now().toISOString());
      runtime.store.update(workspace);
    }
    return present(runtime.resource('workspace'), workspace);
  });
}

const SOURCES = ['UPLOADED', 'SIMULATED'];

/**
 * Every run names an agent (the Run schema requires agent_id). A run completed without one is attributed to
 * the organization's placeholder agent: a soft-deleted record, so no list or get shows it, and events see
 * the run as having no agent.
 */
function placeholderAgent(runtime: Runtime, org: string, workspace: string | null): string {
  const key = `placeholder_agent:${org}`;
  const known = runtime.store.meta(key);
  if (known && runtime.store.get('agent', known)) return known;
  const resource = runtime.resource('agent');
  const data = newRecordData(runtime, resource, { display_name: 'Runs completed through the control plane', model_type: 'MODEL_TYPE_CHAT' }, runtime.clock.now().toISOString());
  const record = runtime.store.insert({ kind: 'agent', id: String(data[resource.id]), org, workspace, deleted: true, data });
  runtime.store.setMeta(key, record.id);
  return record.id;
}

/**
 * A completed run's progress counts every selected test case completed (a run completed here without a launch
 * counts one per observation), and its results hold one value per observation of each metric, each under a
 * simulation output id of its own (`<run_id>-<n>`), with the metric's metric_name when the metric is known.
 */
function completeProgressAndResults(runtime: Runtime, org: string, run: Json, metricValues: Record<string, number[]>): void {
  const observations = Math.max(0, ...Object.values(metricValues).map((v) => v.length));
  const planned = (run.progress as { total_test_cases?: number } | null | undefined)?.total_test_cases;
  const total = typeof planned === 'number' ? planned : observations;
  setOwn(run, 'progress', { total_test_cases: total, completed_test_cases: total, failed_test_cases: 0, in_progress_test_cases: 0 });
  const outputIds = Array.from({ length: observations }, (_, i) => `${String(run.run_id)}-${i + 1}`);
  const metrics: Json = {};
  for (const [metric, values] of Object.entries(metricValues)) {
    const record = runtime.store.get('metric', metric);
    const name = record && (record.org === org || record.org === PLATFORM_ORG) ? record.data.metric_name : undefined;
    setOwn(metrics, metric, {
      metric_id: metric,
      metric_name: typeof name === 'string' ? name : metric,
      output_type: 'float',
      values: values.map((value, i) => ({ simulation_output_id: outputIds[i]!, value })),
    });
  }
  setOwn(run, 'results', { output_ids: outputIds, metrics });
}

/** Marks a run COMPLETED (creating it when no run_id is given) and builds the run.completed event. */
function completeRun(runtime: Runtime, org: string, b: Json): { runId: string; event: RaisedEvent } {
  const tags = stringList(b.tags, 'tags');
  if (b.agent_id !== undefined && typeof b.agent_id !== 'string') throw invalid('agent_id', 'must be a string');
  if (b.scheduled_run_id !== undefined && typeof b.scheduled_run_id !== 'string') throw invalid('scheduled_run_id', 'must be a string');
  const source = b.conversation_source ?? 'SIMULATED';
  if (typeof source !== 'string' || !SOURCES.includes(source)) throw invalid('conversation_source', `must be one of ${SOURCES.join(', ')}`);
  const values = b.metric_values ?? {};
  if (values === null || typeof values !== 'object' || Array.isArray(values)) throw invalid('metric_values', 'must be an object of metric id to number, or to a list of numbers');
  const metricValues: Record<string, number[]> = {};
  for (const [metric, v] of Object.entries(values as Json)) {
    const list = Array.isArray(v) ? v : [v];
    if (list.length === 0 || list.some((x) => typeof x !== 'number' || !Number.isFinite(x))) throw invalid(`metric_values.${metric}`, 'must be a finite number or a non-empty list of them');
    setOwn(metricValues as Json, metric, list as number[]);
  }
  const completedAt = typeof b.completed_at === 'string' && !Number.isNaN(Date.parse(b.completed_at)) ? new Date(b.completed_at).toISOString() : runtime.clock.now().toISOString();
  return runtime.store.transaction(() => {
    const organization = runtime.store.getOrganization(org)!;
    const workspace = typeof b.workspace_id === 'string' ? b.workspace_id : organization.default_workspace_id;
    let run = typeof b.run_id === 'string' ? runtime.store.get('run', b.run_id) : undefined;
    if (typeof b.run_id === 'string' && (!run || run.org !== org || run.deleted)) throw notFound('run_id', 'run');
    if (!run) {
      const resource = runtime.resource('run');
      const agentId = typeof b.agent_id === 'string' ? b.agent_id : placeholderAgent(runtime, org, workspace);
      const data = newRecordData(runtime, resource, { status: 'IN PROGRESS', agent_id: agentId }, completedAt);
      run = runtime.store.insert({ kind: 'run', id: String(data[resource.id]), org, workspace, deleted: false, data });
    }
    // A run the executor is running stops here: its open conversations are closed, one completion fires.
    runtime.runs?.stop(run.id);
    if (run.data.simulations_created === true) closeOpenSimulations(runtime, run, 'cancelled: the run was completed through the control plane');
    setOwn(run.data, 'tags', tags);
    if (typeof b.scheduled_run_id === 'string') setOwn(run.data, 'scheduled_run_id', b.scheduled_run_id);
    for (const [field, value] of [['metric_ids', Object.keys(metricValues)], ['pinned_versions', { agent: null, persona: null, test_set: null, metrics: {} }], ['on_latest_configuration', true]] as const) {
      if (run.data[field] === undefined) setOwn(run.data, field, value);
    }
    if (typeof b.agent_id === 'string') setOwn(run.data, 'agent_id', b.agent_id);
    completeProgressAndResults(runtime, org, run.data, metricValues);
    const event = finishRun(runtime, run, {
      status: 'COMPLETED',
      completedAt,
      metricValues,
      conversationSource: source,
      agentId: typeof b.agent_id === 'string' ? b.agent_id : run.data.agent_id === placeholderAgent(runtime, org, workspace) ? null : ((run.data.agent_id as string | undefined) ?? null),
      tags,
      scheduledRunId: (b.scheduled_run_id as string | undefined) ?? null,
    });
    return { runId: run.id, event };
  });
}
