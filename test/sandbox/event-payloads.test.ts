// The events' payload contract (src/sandbox/rules/events/payloads.ts): raisers build a payload of the event name's
// type, and a handler reads it back typed by the names it handles; an event of another name is refused.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { eventOf, payloadOf, type ConversationWave, type MetricsRerun, type RunCompleted } from '../../src/sandbox/rules/events/payloads.js';

const completed: RunCompleted = {
  run_id: 'r1',
  status: 'COMPLETED',
  agent_id: null,
  tags: ['nightly'],
  scheduled_run_id: null,
  conversation_source: 'SIMULATED',
  metric_values: { m1: [0.5, 1] },
  completed_at: '2026-11-27T00:00:00.000Z',
};

describe('event payloads', () => {
  it('carries a typed payload through the engine event and back', () => {
    const event = eventOf({ name: 'run.completed', org: 'org_1', workspace: null, payload: completed });
    expect(event).toEqual({ name: 'run.completed', org: 'org_1', workspace: null, payload: completed });
    const read = payloadOf(event, 'run.completed');
    expectTypeOf(read).toEqualTypeOf<RunCompleted>();
    expect(read.metric_values.m1).toEqual([0.5, 1]);
  });

  it('types a payload read under several names as the union of their payloads', () => {
    const event = eventOf({ name: 'simulation.metrics-rerun', org: 'o', workspace: null, payload: { run_id: null, simulation_id: 's', completed_at: completed.completed_at, metric_ids: [], metric_values: {} } });
    const read = payloadOf(event, 'run.completed', 'simulation.metrics-rerun');
    expectTypeOf(read).toEqualTypeOf<RunCompleted | MetricsRerun>();
    expect(read.run_id).toBeNull();
  });

  it('refuses an event of a name the handler does not name', () => {
    const event = eventOf({ name: 'run.completed', org: 'o', workspace: null, payload: completed });
    expect(() => payloadOf(event, 'conversation.submitted', 'conversation.audio-attached')).toThrow(/payload of run\.completed as that of conversation\.submitted or conversation\.audio-attached/);
    expectTypeOf(payloadOf<'conversation.submitted'>).returns.toEqualTypeOf<ConversationWave>();
  });
});
