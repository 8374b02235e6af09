// One simulation executed: IN QUEUE -> IN PROGRESS -> COMPLETED (the transcript of the exchange) or FAILED (with an
// error_message saying why), reading the latest agent, persona and test case when it starts. Used by the run
// executor for each conversation and by resimulate. The caller's `guard` runs inside each write transaction and
// says whether this instance may still write (it holds the run's claim and the run is still executing); when it
// may not, nothing is written and the simulation is left to whoever took over.
import type { Runtime } from '../engine/context.js';
import { setOwn } from '../engine/records.js';
import type { Json, StoredRecord } from '../storage/store.js';
import { agentConnection } from './agent-connection.js';
import { converse } from './conversation.js';
import type { TranscriptMessage } from './contract.js';
import type { ResolvedExecutionOptions } from './execution-options.js';
import { personaTurns } from './persona-turns.js';
import { syntheticTranscript } from './synthetic.js';

export interface SimulationHooks {
  /** Inside the transaction that moves the simulation IN PROGRESS. */
  onStart?(): void;
  /** Inside the transaction that stores its outcome. */
  onEnd?(status: 'COMPLETED' | 'FAILED'): void;
}

export type SimulationResult = 'COMPLETED' | 'FAILED' | 'STOPPED';

function live(runtime: Runtime, kind: string, id: unknown): StoredRecord | undefined {
  const record = typeof id === 'string' ? runtime.store.get(kind, id) : undefined;
  return record && !record.deleted ? record : undefined;
}

type Plan = { kind: 'chat'; run: () => ReturnType<typeof converse> } | { kind: 'fixed'; transcript: TranscriptMessage[] | null; synthetic: boolean; error: string | null };

/** What the conversation will be, from the latest records (a missing one fails the conversation, named). */
function plan(runtime: Runtime, sim: StoredRecord, options: ResolvedExecutionOptions, signal: AbortSignal): Plan {
  const agent = live(runtime, 'agent', sim.data.agent_id);
  const persona = live(runtime, 'persona', sim.data.persona_id);
  const testCase = live(runtime, 'test_case', sim.data.test_case_id);
  const missing = !agent ? 'agent' : !persona ? 'persona' : !testCase ? 'test case' : null;
  if (missing) return { kind: 'fixed', transcript: null, synthetic: false, error: `the ${missing} of this simulation no longer exists` };
  const turns = personaTurns(testCase!.data, persona!.data);
  const connection = agentConnection(agent!.data);
  if (connection.kind === 'synthetic') return { kind: 'fixed', transcript: syntheticTranscript(turns, Date.now()), synthetic: true, error: null };
  if (connection.kind === 'invalid') return { kind: 'fixed', transcript: null, synthetic: false, error: `the agent's connection is unusable: ${connection.reason}` };
  const personaData: Json = persona!.data;
  return {
    kind: 'chat',
    run: () =>
      converse({
        connection: connection.connection,
        persona: personaData,
        turns,
        simulationId: sim.id,
        limits: { timeoutMs: options.agentTimeoutMs, maxResponseBytes: options.maxAgentResponseBytes },
        paceMs: options.paceMs,
        signal,
      }),
  };
}

export async function executeSimulation(runtime: Runtime, simulationId: string, options: ResolvedExecutionOptions, signal: AbortSignal, guard: () => boolean, hooks: SimulationHooks = {}): Promise<SimulationResult> {
  const started = runtime.store.transaction(() => {
    const sim = runtime.store.get('simulation', simulationId);
    if (!sim || sim.deleted || sim.data.status !== 'IN QUEUE' || !guard()) return undefined;
    setOwn(sim.data, 'status', 'IN PROGRESS');
    runtime.store.update(sim);
    hooks.onStart?.();
    return sim;
  }, 'write');
  if (!started) return 'STOPPED';
  const steps = plan(runtime, started, options, signal);
  let transcript: TranscriptMessage[] | null;
  let synthetic = false;
  let error: string | null;
  if (steps.kind === 'chat') {
    const outcome = await steps.run();
    transcript = outcome.transcript;
    error = outcome.ok ? null : outcome.error;
  } else {
    ({ transcript, synthetic, error } = steps);
  }
  if (signal.aborted) return 'STOPPED';
  const status = error === null ? 'COMPLETED' : 'FAILED';
  const stored = runtime.store.transaction(() => {
    const sim = runtime.store.get('simulation', simulationId);
    if (!sim || sim.deleted || sim.data.status !== 'IN PROGRESS' || !guard()) return false;
    setOwn(sim.data, 'transcript', transcript);
    setOwn(sim.data, 'synthetic_transcript', synthetic);
    setOwn(sim.data, 'status', status);
    setOwn(sim.data, 'error_message', error);
    runtime.store.update(sim);
    hooks.onEnd?.(status);
    return true;
  }, 'write');
  return stored ? status : 'STOPPED';
}
