// Uploaded conversations as the service's clients read them: the legacy /conversations list and delete sharing
// the canonical records, metric_values as a list of {metric_id, value} only when asked for (include or a
// metric filter), metric_outputs, progress only with include_progress, the date range, the metric outputs
// of each wave and the audio URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageOf } from '../support/conversation-page.js';
import { startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
let textMetric: string;
let audioMetric: string;
beforeAll(async () => {
  h = await startHarness();
  const loaded = await h.control.loadFixtures(h.sandbox.organizationId, [
    { kind: 'metric', data: { metric_name: 'Resolved', metric_type: 'METRIC_LLM_BINARY' } },
    { kind: 'metric', data: { metric_name: 'Tone', metric_type: 'METRIC_AUDIO_LLM_BINARY' } },
  ]);
  textMetric = loaded[0]!.id;
  audioMetric = loaded[1]!.id;
});
afterAll(async () => h.close());

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await h.raw(path, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

const TRANSCRIPT = [{ role: 'user' as const, content: 'Hello' }];

async function submit(metrics: string[] = []): Promise<string> {
  const { uploaded_conversation } = await h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, metrics });
  return uploaded_conversation.conversation_id;
}

describe('legacy /conversations list and delete', () => {
  it('lists the canonical records under {conversations} and deletes answering {conversation}', async () => {
    const id = await submit();
    const list = await call('GET', '/conversations?page_size=100');
    expect(list.status).toBe(200);
    expect(list.body.conversations.map((c: { conversation_id: string }) => c.conversation_id)).toContain(id);
    expect(list.body).not.toHaveProperty('uploaded_conversations');
    const del = await call('DELETE', `/conversations/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.conversation).toMatchObject({ conversation_id: id, status: 'DELETED' });
    expect((await call('GET', `/conversations/uploaded/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/conversations/${id}`)).status).toBe(404);
  });
});

describe('metric_values, metric_outputs and progress', () => {
  it('are left out unless asked for; metric_values is a list of {metric_id, value}', async () => {
    const loaded = await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'conversation', data: { status: 'COMPLETED', has_audio: false, metric_ids: [textMetric], metric_values: [{ metric_id: textMetric, value: 0.5 }] } },
    ]);
    const id = loaded[0]!.id;
    const plain = pageOf(await h.client.conversations.listUploadedConversations({ query: { page_size: 100 } })).uploaded_conversations.find((c) => c.conversation_id === id)!;
    expect(plain).not.toHaveProperty('metric_values');
    expect(plain).not.toHaveProperty('progress');
    const withValues = pageOf(await h.client.conversations.listUploadedConversations({ query: { page_size: 100, include: 'metric_values' } })).uploaded_conversations.find((c) => c.conversation_id === id)!;
    expect(withValues.metric_values).toEqual([{ metric_id: textMetric, value: 0.5 }]);
    const byMetric = pageOf(await h.client.conversations.listUploadedConversations({ query: { metric_id: textMetric } }));
    expect(byMetric.uploaded_conversations.map((c) => c.conversation_id)).toEqual([id]);
    expect(byMetric.uploaded_conversations[0]!.metric_values).toEqual([{ metric_id: textMetric, value: 0.5 }]);
    const outputs = pageOf(await h.client.conversations.listUploadedConversations({ query: { metric_id: textMetric, include: 'metric_outputs' } })).uploaded_conversations[0]!;
    expect(outputs.metric_outputs).toEqual([expect.objectContaining({ metric_id: textMetric, value: 0.5, status: 'COMPLETED' })]);
    const got = (await h.client.conversations.getUploadedConversation(id)).uploaded_conversation;
    expect(got).not.toHaveProperty('metric_values');
  });

  it('shows progress on a get only with include_progress=true', async () => {
    const id = await submit([textMetric, audioMetric]);
    expect((await h.client.conversations.getUploadedConversation(id)).uploaded_conversation).not.toHaveProperty('progress');
    const withProgress = (await h.client.conversations.getUploadedConversation(id, { query: { include_progress: true } })).uploaded_conversation;
    expect(withProgress.progress).toEqual({ total_metrics: 2, completed_metrics: 1, failed_metrics: 0, in_progress_metrics: 1 });
  });

  it('keeps the conversations created in [start_date, end_date)', async () => {
    const id = await submit();
    const created = (await h.client.conversations.getUploadedConversation(id)).uploaded_conversation.create_time;
    const inside = pageOf(await h.client.conversations.listUploadedConversations({ query: { start_date: created, page_size: 100 } }));
    expect(inside.uploaded_conversations.map((c) => c.conversation_id)).toContain(id);
    const before = pageOf(await h.client.conversations.listUploadedConversations({ query: { end_date: created, page_size: 100 } }));
    expect(before.uploaded_conversations.map((c) => c.conversation_id)).not.toContain(id);
  });
});

describe('metric outputs and audio', () => {
  it('lists an output per metric of the waves, the audio one queued until the recording arrives, on both paths', async () => {
    const id = await submit([textMetric, audioMetric]);
    const before = await h.client.conversations.listUploadedConversationMetricOutputs(id);
    expect(before.metrics.map((m) => [m.metric_id, m.status])).toEqual([
      [textMetric, 'COMPLETED'],
      [audioMetric, 'IN QUEUE'],
    ]);
    const one = await h.client.conversations.getUploadedConversationMetricOutput(id, before.metrics[1]!.metric_output_id);
    expect(one.metric).toEqual(before.metrics[1]);
    expect((await call('GET', `/conversations/${id}/metrics/nope`)).status).toBe(404);
    expect((await call('GET', '/conversations/uploaded/AAAAAAAAAAAAAAAAAAAAAA/metrics')).status).toBe(404);
    await h.client.conversations.attachUploadedConversationAudio(id, { audio_url: 'https://storage.example.com/a.wav' });
    const legacy = await call('GET', `/conversations/${id}/metrics`);
    expect(legacy.body.metrics.map((m: { status: string }) => m.status)).toEqual(['COMPLETED', 'COMPLETED']);
  });

  it('answers the recording URL, and 404 without a recording', async () => {
    const id = await submit();
    expect((await call('GET', `/conversations/uploaded/${id}/audio`)).status).toBe(404);
    await h.client.conversations.attachUploadedConversationAudio(id, { audio_url: 'https://storage.example.com/b.wav' });
    const audio = await h.client.conversations.getUploadedConversationAudio(id);
    expect(audio).toMatchObject({ conversation_id: id, url_expires_in_seconds: 3600 });
    expect(audio.audio_url).toMatch(/^https?:\/\//);
    expect((await call('GET', `/conversations/${id}/audio`)).body.conversation_id).toBe(id);
  });
});
