// The scale probe (issue 29): does an operation's cost grow with live data it does not answer? One in-process
// sandbox (SQLite `:memory:`, or PostgreSQL with --pg <url>), one organization; each growing kind of the soak is
// filled to a small N, the operations the hour-long soak found slowing are timed, the kinds are filled to a large
// N and the operations are timed again. Deterministic (no soak, no clock in the data): the table compares the
// two medians per operation. Run: `nice -n 19 npx tsx drill/scale-probe.ts [--large 1] [--pg <url>]`.
import { parseArgs } from 'node:util';
import { createSandbox } from '../src/sandbox/index.js';

const BASE = 'http://probe.test/v1';
const CONTROL = 'http://probe.test/control';

const { values } = parseArgs({ options: { large: { type: 'string', default: '1' }, pg: { type: 'string' }, repeat: { type: 'string', default: '15' } } });
const scale = Number(values.large);
const REPEAT = Number(values.repeat);

/** Target sizes per kind: the small fill, then the large one (issue 29's brief: thousands of each). */
const SIZES = {
  workspaces: [20, Math.round(2000 * scale)],
  simulations: [20, Math.round(3000 * scale)],
  versions: [10, Math.round(500 * scale)],
  testCases: [20, Math.round(3000 * scale)],
  deletedMetrics: [10, Math.round(500 * scale)],
} as const;

const sandbox = await createSandbox({ db: values.pg ?? ':memory:', log: () => {} });
const key = sandbox.apiKey;
const org = sandbox.organizationId;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await sandbox.fetch(
    new Request(`${BASE}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
  );
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, json: text === '' || !text.startsWith('{') ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function fixtures(records: unknown[]): Promise<void> {
  const response = await sandbox.fetch(
    new Request(`${CONTROL}/organizations/${org}/fixtures`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ records }) }),
  );
  if (response.status >= 300) throw new Error(`fixtures: ${response.status} ${(await response.text()).slice(0, 300)}`);
}

const id22 = (prefix: string, n: number): string => `${prefix}${String(n).padStart(22 - prefix.length, '0')}`;

// The fixed records the timed operations work on.
const probeSet = (await api('POST', '/test-sets', { display_name: 'Probe set' })).json.test_set as { id: string };
const bigSet = (await api('POST', '/test-sets', { display_name: 'Big set' })).json.test_set as { id: string };
const smallSet = (await api('POST', '/test-sets', { display_name: 'Small set' })).json.test_set as { id: string };
for (let i = 0; i < 5; i++) await api('POST', '/test-cases', { test_set_id: smallSet.id, input_str: `small ${i}` });

const have = { workspaces: 0, simulations: 0, versions: 0, testCases: 0, deletedMetrics: 0 };
const transcript = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i}: ${'words '.repeat(20)}` }));

async function fill(size: 0 | 1): Promise<void> {
  for (; have.workspaces < SIZES.workspaces[size]; have.workspaces++) await api('POST', '/workspaces', { slug: `fill-${have.workspaces}`, display_name: `Fill ${have.workspaces}` });
  while (have.simulations < SIZES.simulations[size]) {
    const batch = [];
    for (let i = 0; i < 200 && have.simulations < SIZES.simulations[size]; i++, have.simulations++) {
      batch.push({ kind: 'simulation', id: id22('Sim', have.simulations), data: { status: 'COMPLETED', run_id: id22('Run', have.simulations % 50), has_audio: false, transcript } });
    }
    await fixtures(batch);
  }
  for (; have.versions < SIZES.versions[size]; have.versions++) await api('PATCH', `/test-sets/${probeSet.id}`, { display_name: `Probe set v${have.versions}` });
  for (; have.testCases < SIZES.testCases[size]; have.testCases++) await api('POST', '/test-cases', { test_set_id: bigSet.id, input_str: `case ${have.testCases}` });
  for (; have.deletedMetrics < SIZES.deletedMetrics[size]; have.deletedMetrics++) {
    const metric = (await api('POST', '/metrics', { metric_name: `Gone ${have.deletedMetrics}`, description: 'probe', metric_type: 'METRIC_LLM_BINARY', prompt: 'p' })).json.metric as { id: string };
    await api('DELETE', `/metrics/${metric.id}`);
  }
}

let serial = 0;
/** The timed operations: each as the soak sends it; page sizes left at their defaults. */
const operations: Record<string, () => Promise<unknown>> = {
  createWorkspace: () => api('POST', '/workspaces', { slug: `probe-${++serial}`, display_name: 'Probe' }),
  createWorkspaceNoSlug: () => api('POST', '/workspaces', { display_name: 'Probe' }),
  listTestSetVersions: () => api('GET', `/test-sets/${probeSet.id}/versions`),
  listSimulatedConversations: () => api('GET', '/conversations/simulated'),
  listSimulations: () => api('GET', '/simulations'),
  createTestCase: () => api('POST', '/test-cases', { test_set_id: smallSet.id, input_str: `timed ${++serial}` }),
  deleteTestCase: async () => {
    const made = (await api('POST', '/test-cases', { test_set_id: smallSet.id, input_str: `gone ${++serial}` })).json.test_case as { id: string };
    return api('DELETE', `/test-cases/${made.id}`);
  },
  duplicateTestSet: () => api('POST', `/test-sets/${smallSet.id}/duplicate`),
  listTestCasesPage: () => api('GET', `/test-cases?test_set_id=${bigSet.id}&page_size=10`),
  listRecentlyDeletedMetrics: () => api('GET', '/metrics/recently-deleted'),
  listWorkspaces: () => api('GET', '/workspaces'),
  getSpec: () => api('GET', '/openapi/metrics'),
};

async function time(): Promise<Map<string, number>> {
  const medians = new Map<string, number>();
  for (const [name, run] of Object.entries(operations)) {
    const samples: number[] = [];
    try {
      await run();
    } catch (error) {
      medians.set(name, Number.NaN);
      console.error(`${name}: ${(error as Error).message}`);
      continue;
    }
    for (let i = 0; i < REPEAT; i++) {
      const started = performance.now();
      await run();
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    medians.set(name, samples[Math.floor(samples.length / 2)]!);
  }
  return medians;
}

await fill(0);
const small = await time();
const filled = performance.now();
await fill(1);
console.error(`filled to the large N in ${((performance.now() - filled) / 1000).toFixed(1)} s`);
const large = await time();
await sandbox.close();

const sizes = Object.entries(SIZES).map(([kind, [a, b]]) => `${kind} ${a} -> ${b}`).join(', ');
console.log(`Store: ${values.pg === undefined ? 'SQLite :memory:' : 'PostgreSQL'}; live records: ${sizes}; median of ${REPEAT} calls each.\n`);
console.log('| operation | small N (ms) | large N (ms) | ratio |');
console.log('|---|---|---|---|');
for (const name of Object.keys(operations)) {
  const a = small.get(name)!;
  const b = large.get(name)!;
  console.log(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(1)} |`);
}
