// The default target: the sandbox, in process, on `:memory:`, with its control plane (through the generated
// control client) so every check can run, and a webhook receiver (the sandbox's outbound fetch) whose
// answers checks choose.
import { createClient as createControlClient } from '../../generated/control-client/index.js';
// The sandbox is imported when a target is made, not at load: the conformance package needs the sandbox package
// (an optional peer dependency) only for this target.
import type { Sandbox, SandboxOptions } from '../sandbox/index.js';
import type { ControlAccess, ReceivedCall, Target, WebhookReceiver } from './target.js';

/** URLs under this prefix are answered by the receiver; every other outbound call gets 204. */
const RECEIVER_BASE = 'https://receiver.conformance.invalid/hooks/';

interface InProcessReceiver extends WebhookReceiver {
  /** The sandbox's outbound fetch (option `deliveryFetch`). */
  fetch(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ status: number }>;
}

function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A receiver living inside the process; `settle` waits for the sandbox's background deliveries. */
function inProcessReceiver(settle: () => Promise<void>): InProcessReceiver {
  const scripts = new Map<string, number[]>();
  const received = new Map<string, ReceivedCall[]>();
  let next = 0;
  return {
    endpoint(statuses = [204]) {
      const url = `${RECEIVER_BASE}${++next}`;
      scripts.set(url, statuses.length > 0 ? [...statuses] : [204]);
      received.set(url, []);
      return url;
    },
    async calls(url) {
      await settle();
      return [...(received.get(url) ?? [])];
    },
    async fetch(url, init) {
      const script = scripts.get(url);
      const log = received.get(url);
      if (!script || !log) return { status: 204 };
      const status = script[Math.min(log.length, script.length - 1)]!;
      // As an HTTP client would send them: names lower-cased, values as strings (an invalid name throws).
      const headers = Object.fromEntries(new Headers(init.headers as HeadersInit).entries());
      log.push({ method: init.method, headers, body: parsedBody(init.body), status });
      return { status };
    },
  };
}

export async function inProcessTarget(options: Pick<SandboxOptions, 'rules' | 'db' | 'tables'> = {}): Promise<{ target: Target; sandbox: Sandbox }> {
  const { createSandbox } = await import('../sandbox/index.js');
  let settle = async (): Promise<void> => {};
  const receiver = inProcessReceiver(() => settle());
  const sandbox = await createSandbox({ db: ':memory:', log: () => {}, delivery: { attempts: 2, baseDelayMs: 1, timeoutMs: 1000 }, deliveryFetch: (url, init) => receiver.fetch(url, init), ...options });
  settle = () => sandbox.idle();
  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => sandbox.fetch(new Request(input, init));
  const base = 'http://sandbox.local';
  const admin = createControlClient({ baseUrl: `${base}/control`, fetch, bearerToken: sandbox.adminToken, retry: false }).control;
  const org = sandbox.organizationId;
  const control: ControlAccess = {
    createApiKey: async (permissions) => (await admin.createApiKey(org, { permissions })).api_key.key,
    createOtherOrganizationKey: async () => (await admin.createOrganization({ display_name: 'Conformance other organization' })).api_key.key,
    createOrganizationWithoutDefaultWorkspace: async () => {
      const made = await admin.createOrganization({ display_name: 'Conformance organization without a default workspace' });
      await admin.archiveDefaultWorkspace(made.organization.id);
      return made.api_key.key;
    },
    loadFixtures: async (records) => (await admin.loadFixtures(org, { records: records as never })).records,
    completeRun: async (body) => (await admin.completeRun(org, { wait_for_deliveries: true, ...body })) as { run: Record<string, unknown>; sent: Record<string, unknown>[] },
    setRunExecution: async (mode) => void (await admin.setRunExecution(org, { mode })),
    idle: () => sandbox.idle(),
  };
  const target: Target = {
    name: 'in-process sandbox',
    apiKey: sandbox.apiKey,
    control,
    receiver: { endpoint: (statuses) => receiver.endpoint(statuses), calls: (url) => receiver.calls(url) },
    request: (method, path, init = {}) => sandbox.fetch(new Request(`${base}${sandbox.basePath}${path}`, { method, headers: init.headers ?? {}, ...(init.body === undefined ? {} : { body: init.body }) })),
  };
  return { target, sandbox };
}
