// Runs as the inspector's Runs view shows them (issue 25, round 2): every run of an organization with its status,
// progress and the names of what it evaluates, and one run's conversations with their transcripts and metric
// outputs. Records are read as the API presents them, secrets hidden (redact-records.ts); the page renders every
// string as text.
import type { Runtime } from '../engine/context.js';
import { present } from '../engine/records.js';
import { notFound } from '../errors.js';
import { outputsOf } from '../rules/conversation/outputs.js';
import { simulationsOf } from '../runs/simulations.js';
import { isJsonObject, type Json, type StoredRecord } from '../storage/store.js';
import { canRead, seesOrganization, type Session } from './auth.js';
import { redactRecord } from './redact-records.js';

export interface RunSummary {
  run_id: string;
  display_name: string | null;
  status: string;
  progress: { total: number; completed: number; failed: number; in_progress: number };
  error_status: string | null;
  agent: { id: string; name: string | null } | null;
  persona: { id: string; name: string | null } | null;
  test_set: { id: string; name: string | null } | null;
  create_time: string | null;
  complete_time: string | null;
}

export interface ConversationOutput {
  metric_output_id: string;
  metric_id: string;
  metric_name: string | null;
  status: string;
  status_reason: string | null;
  value: unknown;
  explanation: string | null;
}

export interface RunConversation {
  simulation_id: string;
  test_case_id: string | null;
  test_case_input: string | null;
  status: string;
  error_message: string | null;
  /** The agent has no chat endpoint (or is not a chat agent): the transcript was built, not exchanged. */
  synthetic: boolean;
  transcript: Json[];
  outputs: ConversationOutput[];
}

export interface RunDetail {
  summary: RunSummary;
  run: Json;
  conversations: RunConversation[];
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** A referenced record's id and the name it is shown by (null when it is gone). */
function named(runtime: Runtime, kind: string, id: unknown, field: string): { id: string; name: string | null } | null {
  if (typeof id !== 'string' || id === '') return null;
  const record = runtime.store.get(kind, id);
  return { id, name: record && !record.deleted ? text(record.data[field]) : null };
}

function summary(runtime: Runtime, run: StoredRecord): RunSummary {
  const p = isJsonObject(run.data.progress) ? run.data.progress : {};
  return {
    run_id: run.id,
    display_name: text(run.data.display_name),
    status: String(run.data.status ?? ''),
    progress: { total: count(p.total_test_cases), completed: count(p.completed_test_cases), failed: count(p.failed_test_cases), in_progress: count(p.in_progress_test_cases) },
    error_status: text(run.data.error_status),
    agent: named(runtime, 'agent', run.data.agent_id, 'display_name'),
    persona: named(runtime, 'persona', run.data.persona_id, 'name'),
    test_set: named(runtime, 'test_set', run.data.test_set_id, 'display_name'),
    create_time: text(run.data.create_time),
    complete_time: text(run.data.complete_time),
  };
}

function readable(runtime: Runtime, session: Session): void {
  if (!canRead(runtime, session, 'run')) throw notFound('run_id', 'run');
}

/** The organization's runs (deleted ones left out), newest first. */
export function runList(runtime: Runtime, session: Session, org: string): RunSummary[] {
  readable(runtime, session);
  return runtime.store
    .list('run', { org })
    .filter((r) => r.org === org && !r.deleted && r.data.status !== 'DELETED')
    .sort((a, b) => b.seq - a.seq)
    .map((r) => summary(runtime, r));
}

function conversation(runtime: Runtime, sim: StoredRecord, metricNames: Map<string, string | null>): RunConversation {
  const shown = redactRecord(present(runtime.resource('simulation'), sim));
  const caseRecord = typeof sim.data.test_case_id === 'string' ? runtime.store.get('test_case', sim.data.test_case_id) : undefined;
  const nameOf = (metricId: string): string | null => {
    if (!metricNames.has(metricId)) metricNames.set(metricId, text(runtime.store.get('metric', metricId)?.data.metric_name));
    return metricNames.get(metricId) ?? null;
  };
  return {
    simulation_id: sim.id,
    test_case_id: text(sim.data.test_case_id),
    test_case_input: text(caseRecord?.data.input_str),
    status: String(sim.data.status ?? ''),
    error_message: text(sim.data.error_message),
    synthetic: sim.data.synthetic_transcript === true,
    transcript: Array.isArray(shown.transcript) ? shown.transcript.filter(isJsonObject) : [],
    outputs: outputsOf('simulation', sim).map((o) => ({
      metric_output_id: String(o.metric_output_id),
      metric_id: String(o.metric_id),
      metric_name: nameOf(String(o.metric_id)),
      status: String(o.status ?? ''),
      status_reason: text(o.status_reason),
      value: o.value ?? null,
      explanation: text(o.explanation),
    })),
  };
}

/** One run as the API presents it (secrets hidden), with each of its conversations in creation order. */
export function runDetail(runtime: Runtime, session: Session, id: string): RunDetail {
  readable(runtime, session);
  const run = runtime.store.get('run', id);
  if (!run || run.deleted || !seesOrganization(session, run.org)) throw notFound('run_id', 'run');
  const sims = canRead(runtime, session, 'simulation') ? simulationsOf(runtime, run) : [];
  const metricNames = new Map<string, string | null>();
  return {
    summary: summary(runtime, run),
    run: redactRecord(present(runtime.resource('run'), run)),
    conversations: sims.map((s) => conversation(runtime, s, metricNames)),
  };
}
