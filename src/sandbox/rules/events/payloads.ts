// The payload of each event the rule modules raise and handle (the event names of ../names.ts): one definition
// that types both sides, the raisers (raiseEvent / eventOf: the control plane's run completion, a conversation's metric
// waves, a simulation's metric re-run) and the handlers (payloadOf: x-handlers' rules). A payload changed on one
// side only fails tsc; an event name without a payload here fails it too.
import type { RaisedEvent, Runtime } from '../../engine/context.js';
import type { Json } from '../../storage/store.js';
import type { EventName } from '../names.js';

/** run.completed, raised when a run finishes (runs/complete.ts: the executor's and the control plane's completion). */
export interface RunCompleted {
  run_id: string;
  /** How the run finished (facts 2.17: job_complete is sent for COMPLETED and FAILED runs alike). */
  status: 'COMPLETED' | 'FAILED';
  agent_id: string | null;
  tags: string[];
  scheduled_run_id: string | null;
  conversation_source: string;
  /** Each metric's results: a non-empty list of finite numbers (the control plane refuses anything else, the executor keeps only numbers). */
  metric_values: Record<string, number[]>;
  completed_at: string;
}

/** conversation.submitted (wave text) and conversation.audio-attached (wave audio): one metric wave of an uploaded conversation. */
export interface ConversationWave {
  /** The stored conversation's data, as the engine's default event payload carries a record. */
  record: Json;
  wave: 'text' | 'audio';
  conversation_id: string;
  metric_ids: string[];
  /** Empty: the sandbox has no scorer (rules/audio/conversation.ts). */
  metric_values: Record<string, number[]>;
}

/** simulation.metrics-rerun: a simulation's metrics evaluated again, delivered as a run wave of its run. */
export interface MetricsRerun {
  run_id: string | null;
  simulation_id: string;
  completed_at: string;
  metric_ids: string[];
  /** The simulation's stored value of each re-run metric that has one. */
  metric_values: Record<string, number[]>;
}

/** simulation.metrics-rescore: a re-run's simulation whose stored transcript is scored again (in the background). */
export interface MetricsRescore {
  run_id: string | null;
  simulation_id: string;
  metric_ids: string[];
  /** The re-scoring's job in the run queue (runs/metrics/metric-jobs.ts rescoreKey). */
  job_id: string;
}

/** metric.test-requested: POST /metrics/{metric_id}/test queued an output; the handler scores it. */
export interface MetricTestRequested {
  simulation_id: string;
  metric_id: string;
  metric_output_id: string;
}

/** Every event name with its payload; `Covering` makes a name of names.ts without a payload here a type error. */
type Covering<Names extends string, T extends Record<Names, object>> = T;
export type EventPayloads = Covering<
  EventName,
  {
    'run.completed': RunCompleted;
    'conversation.submitted': ConversationWave;
    'conversation.audio-attached': ConversationWave;
    'simulation.metrics-rerun': MetricsRerun;
    'simulation.metrics-rescore': MetricsRescore;
    'metric.test-requested': MetricTestRequested;
  }
>;

/** An event of one of these names, its payload of that name's type. */
export interface TypedEvent<N extends EventName> {
  name: N;
  org: string;
  workspace: string | null;
  payload: EventPayloads[N];
}

/** The event as the engine carries it: its payload as JSON (the payload types above are JSON shapes). */
export function eventOf<N extends EventName>(event: TypedEvent<N>): RaisedEvent {
  return { ...event, payload: event.payload as unknown as Json };
}

/** Queues an event whose payload has its name's type (handled after the raising transaction commits). */
export function raiseEvent<N extends EventName>(runtime: Runtime, event: TypedEvent<N>): void {
  runtime.raise(eventOf(event));
}

/** An event's payload, typed by one of the names its handler is given (x-handlers); another event is refused. */
export function payloadOf<N extends EventName>(event: RaisedEvent, ...names: N[]): EventPayloads[N] {
  if (!(names as string[]).includes(event.name)) throw new Error(`sandbox: a handler read the payload of ${event.name} as that of ${names.join(' or ')}`);
  // Every raiser goes through eventOf (or raiseEvent), which types the payload by the event's name.
  return event.payload as unknown as EventPayloads[N];
}
