// A run that cannot execute at all (its test set deleted before it started) ends FAILED with `error`, and its
// completion fires like a COMPLETED one: the job_complete webhook with status FAILED (facts 2.17).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../src/sandbox/events/deliver.js';
import { startHarness, type Harness } from '../../support/sandbox.js';
import { until } from './chat-agent-server.js';

const deliveries: Record<string, unknown>[] = [];
const captureFetch: FetchLike = async (_url, init) => {
  deliveries.push(JSON.parse(init.body) as Record<string, unknown>);
  return { status: 200 };
};

let h: Harness;
beforeAll(async () => {
  // A slow pace: the run waits 400 ms before it is queued, time enough to delete its test set.
  h = await startHarness({ deliveryFetch: captureFetch, runs: { paceMs: 400 } });
});
afterAll(async () => h.close());

describe('a run that cannot execute', () => {
  it('ends FAILED with an error, and job_complete is delivered once with status FAILED', async () => {
    const org = await h.control.createOrganization('failed run');
    const c = h.clientFor(org.api_key.key);
    const { agent } = await c.agents.createAgent({ display_name: 'Voice', model_type: 'MODEL_TYPE_VOICE' });
    const { persona } = await c.personas.createPersona({ name: 'P', voice_name: 'hans', language_code: 'de-DE' });
    const setId = (await c.testSets.createTestSet({ display_name: 'Doomed' })).test_set!.id!;
    await c.testCases.createTestCase({ test_set_id: setId, input_str: 'hello' });
    await c.webhooks.createWebhook({ type: 'job_complete', url: 'https://hooks.example.test/failed' });
    const { run } = await c.runs.launchRun({ agent_id: agent.id, persona_id: persona.id, test_set_id: setId });
    await c.testSets.deleteTestSet(setId);
    const failed = await until(async () => (await c.runs.getRun(run.run_id)).run, (r) => r.status !== 'PENDING' && r.status !== 'IN QUEUE');
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/test set no longer exists/);
    await h.sandbox.idle();
    const sent = deliveries.filter((d) => d.run_id === run.run_id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ organization_id: org.organization.id, status: 'FAILED', message: expect.stringContaining('FAILED') });
  });
});
