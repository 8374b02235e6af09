// The inspector never shows a chat agent's credentials (issue 25): metadata.authorization_header and every value of
// metadata.custom_headers are hidden in the record, its versions and the search, while the rest stays readable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

async function inspect(path: string): Promise<string> {
  const res = await h.sandbox.fetch(new Request(`http://sandbox.test/inspector/api${path}`, { headers: { authorization: `Bearer ${h.sandbox.adminToken}` } }));
  expect(res.status).toBe(200);
  return res.text();
}

describe('inspector redaction of agent connections', () => {
  it('hides authorization_header and custom header values in the record, its versions and the search', async () => {
    const { agent } = await h.client.agents.createAgent({
      display_name: 'Secret bot',
      model_type: 'MODEL_TYPE_CHAT',
      metadata: { chat_endpoint: 'http://127.0.0.1:9/chat', authorization_header: 'Bearer auth-secret-77', custom_headers: JSON.stringify({ 'X-Api-Key': 'header-secret-88' }) },
    });
    await h.client.agents.updateAgent(agent.id, { prompt: 'A second version.' });
    const detail = await inspect(`/records/agent/${agent.id}`);
    expect(detail).not.toContain('auth-secret-77');
    expect(detail).not.toContain('header-secret-88');
    // What is not secret stays visible: the endpoint and the header's name.
    expect(detail).toContain('http://127.0.0.1:9/chat');
    expect(detail).toContain('X-Api-Key');
    // The search finds the agent by what is shown, and not by a hidden secret.
    expect(await inspect('/records?q=127.0.0.1:9')).toContain(agent.id);
    expect(await inspect('/records?q=auth-secret-77')).not.toContain(agent.id);
    expect(await inspect('/records?q=header-secret-88')).not.toContain(agent.id);
  });
});
