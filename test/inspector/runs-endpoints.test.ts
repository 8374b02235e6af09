// The Runs view's endpoints (src/sandbox/inspector/runs.ts): who may see which run. Another organization's key gets
// 404 on the run and never lists it; a key without the runs' read permission gets 404; the admin sees it; an unknown
// run is 404 with the API's envelope. The detail carries the conversations and their outputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox.js';
import { startChatAgent, until, type ChatAgent } from '../sandbox/runs/chat-agent-server.js';

let h: Harness;
let agentServer: ChatAgent;
let key: string;
let org: string;
let runId: string;
beforeAll(async () => {
  agentServer = await startChatAgent();
  h = await startHarness({ runs: { paceMs: 0 } });
  const o = await h.control.createOrganization('Owner');
  key = o.api_key.key;
  org = o.organization.id;
  const c = h.clientFor(key);
  const { agent } = await c.agents.createAgent({ display_name: 'Echo', model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: `${agentServer.url}/chat`, authorization_header: 'Bearer endpoint-secret-5' } });
  const { persona } = await c.personas.createPersona({ name: 'P', voice_name: 'hans', language_code: 'de-DE' });
  const { test_set } = await c.testSets.createTestSet({ display_name: 'Set' });
  await c.testCases.createTestCase({ test_set_id: test_set!.id!, input_str: 'Hi' });
  runId = (await c.runs.launchRun({ agent_id: agent.id, persona_id: persona.id, test_set_id: test_set!.id!, metric_ids: [] })).run.run_id;
  await until(async () => (await c.runs.getRun(runId)).run, (r) => r.status === 'COMPLETED');
});
afterAll(async () => {
  await h.close();
  await agentServer.close();
});

async function call(path: string, token: string): Promise<{ status: number; body: Record<string, any>; text: string }> {
  const res = await h.sandbox.fetch(new Request(`http://sandbox.test/inspector/api${path}`, { headers: { authorization: `Bearer ${token}` } }));
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, any>, text };
}

describe('inspector runs endpoints', () => {
  it("list and show the organization's run to its key and to the admin, with the conversation and no credential", async () => {
    const listed = await call(`/runs?organization_id=${org}`, key);
    expect(listed.status).toBe(200);
    expect(listed.body.runs.map((r: { run_id: string }) => r.run_id)).toEqual([runId]);
    expect(listed.body.runs[0]).toMatchObject({ status: 'COMPLETED', progress: { total: 1, completed: 1, failed: 0 }, agent: { name: 'Echo' }, test_set: { name: 'Set' } });
    for (const token of [key, h.sandbox.adminToken]) {
      const detail = await call(`/runs/${runId}`, token);
      expect(detail.status).toBe(200);
      expect(detail.body.conversations).toHaveLength(1);
      expect(detail.body.conversations[0].transcript.map((m: { content: unknown }) => m.content)).toContain('echo: Hi');
      expect(detail.text).not.toContain('endpoint-secret-5');
    }
  });

  it("refuses another organization's key, a key without the runs' permission and an unknown run with 404", async () => {
    const other = await h.control.createOrganization('Other');
    const foreign = await call(`/runs/${runId}`, other.api_key.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.details[0].field).toBe('run_id');
    // Its own list is its own organization's: empty; naming the owner's organization is 404.
    expect((await call('/runs', other.api_key.key)).body.runs).toEqual([]);
    expect((await call(`/runs?organization_id=${org}`, other.api_key.key)).status).toBe(404);
    const narrow = await h.control.createApiKey(org, ['tags:read']);
    expect((await call(`/runs/${runId}`, narrow.key)).status).toBe(404);
    expect((await call(`/runs?organization_id=${org}`, narrow.key)).status).toBe(404);
    const unknown = await call('/runs/NoSuchRunXXXXXXXXXXXXX', key);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });
});
