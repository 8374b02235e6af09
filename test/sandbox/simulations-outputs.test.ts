// Simulated conversations as the service's clients read them: the legacy /simulations list and delete sharing
// the canonical records, metric_values on lists only with include=metric_values, metric outputs from the
// values, the audio URL, re-running metrics (202 / 207, a webhook delivery per queued one) and re-simulating.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox.js';

const deliveries: Record<string, unknown>[] = [];
let h: Harness;
let metric: string;
beforeAll(async () => {
  h = await startHarness({
    deliveryFetch: async (_url, init) => {
      deliveries.push(JSON.parse(init.body) as Record<string, unknown>);
      return { status: 200 };
    },
  });
  metric = (await h.control.loadFixtures(h.sandbox.organizationId, [{ kind: 'metric', data: { metric_name: 'Resolved', metric_type: 'METRIC_LLM_BINARY' } }]))[0]!.id;
});
afterAll(async () => h.close());

let counter = 0;
async function simulation(data: Record<string, unknown> = {}): Promise<string> {
  const id = `simout${String(++counter).padStart(4, '0')}`.padEnd(22, 'x');
  await h.control.loadFixtures(h.sandbox.organizationId, [
    { kind: 'simulation', id, data: { run_id: 'RunAAAAAAAAAAAAAAAAAAA', status: 'COMPLETED', has_audio: true, agent_id: 'A'.repeat(22), metric_values: { [metric]: 0.75 }, ...data } },
  ]);
  return id;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await h.raw(path, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

describe('legacy /simulations list and delete', () => {
  it('lists under {simulations} with metric_values only on include=metric_values, and deletes the shared record', async () => {
    const id = await simulation();
    const plain = await call('GET', '/simulations?page_size=100');
    const item = plain.body.simulations.find((s: { simulation_id: string }) => s.simulation_id === id);
    expect(item).toBeDefined();
    expect(item).not.toHaveProperty('metric_values');
    const included = await h.client.simulatedConversations.listSimulatedConversations({ query: { include: 'metric_values', page_size: 100 } });
    expect(included.simulated_conversations.find((s) => s.simulation_id === id)!.metric_values).toEqual({ [metric]: 0.75 });
    expect((await call('DELETE', `/simulations/${id}`)).status).toBe(200);
    expect((await call('GET', `/conversations/simulated/${id}`)).status).toBe(404);
  });
});

describe('metric outputs, audio, re-run and re-simulate', () => {
  it('lists and gets the metric outputs from the simulation values on both paths', async () => {
    const id = await simulation();
    const list = await h.client.simulatedConversations.listSimulatedConversationMetricOutputs(id);
    expect(list.metrics).toEqual([expect.objectContaining({ metric_id: metric, value: 0.75, status: 'COMPLETED' })]);
    const one = await call('GET', `/simulations/${id}/metrics/${list.metrics[0]!.metric_output_id}`);
    expect(one.body.metric).toEqual(list.metrics[0]);
  });

  it('answers the audio URL of a simulation with a recording, 404 without', async () => {
    const id = await simulation();
    const audio = await h.client.simulatedConversations.getSimulatedConversationAudio(id);
    expect(audio).toMatchObject({ simulation_id: id, url_expires_in_seconds: 3600, peaks_url: null });
    const silent = await simulation({ has_audio: false });
    expect((await call('GET', `/simulations/${silent}/audio`)).status).toBe(404);
  });

  it('re-runs metrics: 202 when all are queued, 207 with NOT_FOUND results, a webhook delivery per queued one', async () => {
    await h.client.webhooks.createWebhook({ type: 'job_complete', url: 'https://hooks.example/rerun' });
    const id = await simulation();
    const all = await call('POST', '/conversations/simulated:rerunMetrics', { simulation_ids: [id], metric_ids: [metric] });
    expect(all.status).toBe(202);
    expect(all.body).toEqual({ results: [{ simulation_id: id, status: 'QUEUED', error: null }], queued_count: 1, failed_count: 0 });
    await h.sandbox.idle();
    expect(deliveries.filter((d) => d.run_id === 'RunAAAAAAAAAAAAAAAAAAA' && (d.metric_values as Record<string, number>)[metric] === 0.75)).toHaveLength(1);
    const some = await call('POST', '/simulations:rerunMetrics', { simulation_ids: [id, 'missingAAAAAAAAAAAAAAA'], metric_ids: [metric] });
    expect(some.status).toBe(207);
    expect(some.body.results[1]).toMatchObject({ simulation_id: 'missingAAAAAAAAAAAAAAA', status: 'NOT_FOUND' });
    expect(some.body).toMatchObject({ queued_count: 1, failed_count: 1 });
    expect((await call('POST', '/simulations:rerunMetrics', { simulation_ids: [id], metric_ids: ['AAAAAAAAAAAAAAAAAAAAAA'] })).status).toBe(404);
  });

  it('re-simulates in place: the same simulation re-queued, its audio and values dropped, on both paths', async () => {
    const id = await simulation();
    const answer = await h.client.simulatedConversations.resimulateSimulatedConversation(id);
    expect(answer).toMatchObject({ simulation_id: id, run_id: 'RunAAAAAAAAAAAAAAAAAAA', queued: true });
    const again = (await h.client.simulatedConversations.getSimulatedConversation(id)).simulated_conversation;
    expect(again).toMatchObject({ run_id: 'RunAAAAAAAAAAAAAAAAAAA', has_audio: false, agent_id: 'A'.repeat(22) });
    expect(['IN QUEUE', 'IN PROGRESS', 'FAILED']).toContain(again.status);
    expect((await call('POST', `/simulations/${id}/resimulate`)).body).toMatchObject({ simulation_id: id, run_id: 'RunAAAAAAAAAAAAAAAAAAA' });
  });
});
