// The inspector's Runs view in a real browser (issue 25, round 2): a run launched through the API against a
// loopback chat agent is shown progressing to COMPLETED, its conversations show the agent's exact reply turn by
// turn, the persona's end_conversation as a tool message and the metric values; a transcript carrying markup
// shows as text; the agent's credential never reaches the page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../generated/client/index.js';
import { startHarness, type Harness } from '../support/sandbox.js';
import { startChatAgent, type ChatAgent } from '../sandbox/runs/chat-agent-server.js';
import { chromiumAvailable, launch } from './browser.js';

const available = chromiumAvailable();
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const SECRET = 'Bearer runs-view-secret-77';

describe.skipIf(!available)('Runs view in Chromium', () => {
  let h: Harness;
  let agentServer: ChatAgent;
  let browser: Browser;
  let origin: string;
  let close: () => Promise<void>;
  let key: string;
  let c: Client;
  const problems: string[] = [];

  beforeAll(async () => {
    agentServer = await startChatAgent();
    h = await startHarness({ runs: { paceMs: 20 } });
    const server = await h.sandbox.listen({ port: 0 });
    origin = server.url;
    close = server.close;
    browser = await launch();
    const o = await h.control.createOrganization('Runs view');
    key = o.api_key.key;
    c = h.clientFor(key);
  });
  afterAll(async () => {
    await browser?.close();
    await close?.();
    await h?.close();
    await agentServer?.close();
  });

  async function open(hash: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${origin}/inspector?token=${encodeURIComponent(key)}`);
    await page.evaluate((x) => (location.hash = x), hash);
    return page;
  }

  it('shows a launched run progressing to COMPLETED with the exact transcript and metric values, markup as text', async () => {
    const { agent } = await c.agents.createAgent({
      display_name: 'Echo agent',
      model_type: 'MODEL_TYPE_CHAT',
      metadata: { chat_endpoint: `${agentServer.url}/chat`, authorization_header: SECRET },
    });
    const { persona } = await c.personas.createPersona({ name: 'Caller', voice_name: 'hans', language_code: 'de-DE' });
    const { test_set } = await c.testSets.createTestSet({ display_name: 'Orders' });
    const setId = test_set!.id!;
    await c.testCases.createTestCase({ test_set_id: setId, input_str: 'Where is my order?' });
    await c.testCases.createTestCase({ test_set_id: setId, input_str: HOSTILE });
    const regex = (await c.metrics.createMetric({ metric_name: 'Echoes', description: 'Did the agent echo?', metric_type: 'METRIC_TRANSCRIPT_REGEX', regex_pattern: '^echo: ', role: 'agent' } as Parameters<Client['metrics']['createMetric']>[0])).metric;
    const judged = (await c.metrics.createMetric({ metric_name: 'Polite', description: 'Polite?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Polite?' })).metric;
    // The page is open before the launch: the run appears and reaches COMPLETED without a reload (the view polls).
    const page = await open('#/runs');
    await page.locator('p.count').getByText('0 runs').waitFor();
    await c.runs.launchRun({ agent_id: agent.id, persona_id: persona.id, test_set_id: setId, metric_ids: [regex.id, judged.id], metadata: { display_name: 'Nightly orders' } });
    const table = page.getByRole('table', { name: 'Runs' });
    const row = table.getByRole('row', { name: /Nightly orders/ });
    await row.waitFor({ timeout: 20_000 });
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/COMPLETED/);
    const rowText = await row.innerText();
    expect(rowText).toContain('2/2');
    expect(rowText).toContain('Echo agent');
    expect(rowText).toContain('Orders');

    await row.getByRole('link', { name: 'Nightly orders' }).click();
    const panel = page.getByRole('article', { name: 'Run' });
    await panel.getByText('2 conversations').waitFor();
    // Metric outputs are written after the conversation ends: the panel polls until they are done.
    const outputs = panel.getByRole('table', { name: /Metric outputs/ });
    await expect.poll(async () => (await outputs.allInnerTexts()).join('\n'), { timeout: 20_000 }).not.toMatch(/IN QUEUE|IN PROGRESS/);
    const all = (await outputs.allInnerTexts()).join('\n');
    // The regex metric is computed on the exchange (1: every agent turn starts "echo: "); the judged one answers YES or NO.
    expect(all.match(/Echoes\s+COMPLETED\s+1\b/g)).toHaveLength(2);
    expect(all.match(/Polite\s+COMPLETED\s+(YES|NO)\b/g)).toHaveLength(2);

    const transcripts = (await panel.getByRole('table', { name: /Transcript/ }).allInnerTexts()).join('\n');
    expect(transcripts).toContain('echo: Where is my order?');
    expect(transcripts).toContain('tool: end_conversation');
    // The hostile input and the agent's echo of it are text: no element was made from them, no script ran.
    expect(transcripts).toContain(`echo: ${HOSTILE}`);
    expect(await panel.locator('table.transcript img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // The agent's credential is not on the page (the run JSON holds no agent metadata; nothing else may leak it).
    expect(await page.content()).not.toContain('runs-view-secret-77');
    await page.close();
  });

  it('marks a synthetic transcript and shows a failed conversation with its error message', async () => {
    const { agent: voice } = await c.agents.createAgent({ display_name: 'Phone agent', model_type: 'MODEL_TYPE_VOICE' } as Parameters<Client['agents']['createAgent']>[0]);
    agentServer.on('/down', () => ({ status: 503, body: { error: 'overloaded' } }));
    const { agent: down } = await c.agents.createAgent({ display_name: 'Down agent', model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: `${agentServer.url}/down` } });
    const { persona } = await c.personas.createPersona({ name: 'Caller 2', voice_name: 'hans', language_code: 'de-DE' });
    const { test_set } = await c.testSets.createTestSet({ display_name: 'Single' });
    await c.testCases.createTestCase({ test_set_id: test_set!.id!, input_str: 'Hello there' });
    const synthetic = (await c.runs.launchRun({ agent_id: voice.id, persona_id: persona.id, test_set_id: test_set!.id!, metric_ids: [], metadata: { display_name: 'Synthetic run' } })).run;
    const failing = (await c.runs.launchRun({ agent_id: down.id, persona_id: persona.id, test_set_id: test_set!.id!, metric_ids: [], metadata: { display_name: 'Failing run' } })).run;

    const page = await open(`#/runs/${synthetic.run_id}`);
    const panel = page.getByRole('article', { name: 'Run' });
    await expect.poll(() => panel.locator('p.meta').first().innerText(), { timeout: 20_000 }).toMatch(/COMPLETED/);
    await panel.getByText('synthetic transcript').waitFor();
    expect((await panel.getByRole('table', { name: /Transcript/ }).innerText())).toContain('Hello there');

    await page.evaluate((x) => (location.hash = x), `#/runs/${failing.run_id}`);
    const failed = page.getByRole('article', { name: 'Run' });
    await expect.poll(() => failed.locator('p.meta').first().innerText(), { timeout: 20_000 }).toMatch(/COMPLETED/);
    expect(await failed.locator('p.meta').first().innerText()).toContain('EXECUTION_FAILURE');
    await expect.poll(() => failed.getByLabel('Error message').innerText()).toMatch(/503/);
    await page.close();
  });

  it('raised no console or page error', () => {
    expect(problems).toEqual([]);
  });
});
