// `npm run sandbox -- --judge-url ...` (issue 25, round 2): the judge endpoint from the command line, through the
// real CLI and socket. A run's judged metric is answered by the configured endpoint (its model, the Authorization
// header from SANDBOX_JUDGE_AUTHORIZATION), not by the stand-in; bad values are one line and exit 2.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../generated/client/index.js';
import { startChatAgent, until, type ChatAgent } from './chat-agent-server.js';

const children: ChildProcess[] = [];
let server: ChatAgent;
beforeAll(async () => {
  server = await startChatAgent();
  // The agent echoes (the default); the judge answers in chat-completions shape with JSON content.
  server.on('/judge', () => ({ body: { choices: [{ message: { role: 'assistant', content: JSON.stringify({ value: 'NO', explanation: 'judged by the CLI-configured endpoint' }) } }] } }));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await server.close();
});

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', ':memory:', ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
}

describe('npm run sandbox -- --judge-url', () => {
  it('answers judged metrics through the configured endpoint with its model, timeout and authorization', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', ':memory:', '--json', '--run-pace-ms', '0', '--judge-url', `${server.url}/judge`, '--judge-model', 'judge-7b', '--judge-timeout-ms', '400'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SANDBOX_JUDGE_AUTHORIZATION: 'Bearer judge-secret-9' },
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    const info = JSON.parse(line) as { base_url: string; api_key: string };
    const c = createClient({ baseUrl: info.base_url, apiKey: info.api_key, retry: false });
    const { agent } = await c.agents.createAgent({ display_name: 'Echo', model_type: 'MODEL_TYPE_CHAT', metadata: { chat_endpoint: `${server.url}/chat` } });
    const { persona } = await c.personas.createPersona({ name: 'Caller', voice_name: 'hans', language_code: 'de-DE' });
    const { test_set } = await c.testSets.createTestSet({ display_name: 'One' });
    await c.testCases.createTestCase({ test_set_id: test_set!.id!, input_str: 'Hello' });
    const { metric } = await c.metrics.createMetric({ metric_name: 'Polite', description: 'Polite?', metric_type: 'METRIC_LLM_BINARY', prompt: 'Was the agent polite?' });
    const { run } = await c.runs.launchRun({ agent_id: agent.id, persona_id: persona.id, test_set_id: test_set!.id!, metric_ids: [metric.id] });
    await until(async () => (await c.runs.getRun(run.run_id)).run, (r) => r.status === 'COMPLETED');
    const [sim] = (await c.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${run.run_id}"` } })).simulated_conversations;
    const outputs = (await c.simulatedConversations.listSimulatedConversationMetricOutputs(sim!.simulation_id)).metrics as Record<string, unknown>[];
    expect(outputs.find((o) => o.metric_id === metric.id)).toMatchObject({ status: 'COMPLETED', value: 'NO', explanation: 'judged by the CLI-configured endpoint' });

    const judged = server.calls.filter((call) => call.path === '/judge');
    expect(judged).toHaveLength(1);

    // The timeout is the flag's: a judge slower than 400 ms fails that output, saying so.
    server.on('/judge', () => ({ delayMs: 1500, body: {} }));
    const slow = (await c.runs.launchRun({ agent_id: agent.id, persona_id: persona.id, test_set_id: test_set!.id!, metric_ids: [metric.id] })).run;
    await until(async () => (await c.runs.getRun(slow.run_id)).run, (r) => r.status === 'COMPLETED');
    const [slowSim] = (await c.simulatedConversations.listSimulatedConversations({ query: { filter: `run_id = "${slow.run_id}"` } })).simulated_conversations;
    const slowOutputs = (await c.simulatedConversations.listSimulatedConversationMetricOutputs(slowSim!.simulation_id)).metrics as Record<string, unknown>[];
    expect(slowOutputs.find((o) => o.metric_id === metric.id)).toMatchObject({ status: 'FAILED', status_reason: expect.stringContaining('within 400 ms') });
    expect(judged[0]!.headers.authorization).toBe('Bearer judge-secret-9');
    expect(judged[0]!.body.model).toBe('judge-7b');
    // The secret came from the environment and is never printed.
    expect(stderr).not.toContain('judge-secret-9');
    expect(line).not.toContain('judge-secret-9');
  });

  it('lists the flags in the usage and refuses bad values with exit 2, naming the flag', () => {
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--judge-url URL/);
    expect(help.stdout).toMatch(/--judge-timeout-ms N/);
    expect(help.stdout).toContain('SANDBOX_JUDGE_AUTHORIZATION');
    const ftp = cli(['--judge-url', 'ftp://127.0.0.1/judge']);
    expect(ftp.status).toBe(2);
    expect(ftp.stderr).toContain('--judge-url must be an http(s) URL');
    const timeout = cli(['--judge-url', `${server.url}/judge`, '--judge-timeout-ms', 'soon']);
    expect(timeout.status).toBe(2);
    expect(timeout.stderr).toContain('--judge-timeout-ms must be a whole number');
    const alone = cli(['--judge-model', 'judge-7b']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('need --judge-url');
  });
});
