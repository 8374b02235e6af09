// Test harness for the sandbox: an in-process sandbox on `:memory:`, the generated client wired to its
// fetch handler, and the control plane (organizations, keys, fixtures, run completions, sent items).
import { ApiError, createClient, type Client, type ClientOptions } from '../../generated/client/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const BASE_URL = 'http://sandbox.test/v1';
const CONTROL_URL = 'http://sandbox.test/control';

export interface Harness {
  sandbox: Sandbox;
  /** Client of the development organization (every permission). */
  client: Client;
  /** A client with another key / workspace / options, on the same sandbox. */
  clientFor(apiKey: string, options?: Partial<ClientOptions>): Client;
  /** Raw request to the API (path below /v1), for what the client would not send. */
  raw(path: string, init?: RequestInit): Promise<Response>;
  control: Control;
  close(): Promise<void>;
}

export interface Control {
  createOrganization(displayName?: string): Promise<{ organization: { id: string; default_workspace_id: string }; default_workspace: Record<string, unknown>; api_key: { key: string; permissions: string[] } }>;
  createApiKey(organizationId: string, permissions: string[]): Promise<{ key: string; permissions: string[] }>;
  loadFixtures(organizationId: string, records: unknown[]): Promise<{ kind: string; id: string }[]>;
  completeRun(organizationId: string, body: Record<string, unknown>): Promise<{ run: Record<string, unknown>; sent: Record<string, unknown>[] }>;
  sent(filter?: { organization_id?: string; kind?: string }): Promise<Record<string, unknown>[]>;
  reset(): Promise<void>;
  request(method: string, path: string, body?: unknown, token?: string): Promise<Response>;
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await createSandbox({ db: ':memory:', log: () => {}, delivery: { baseDelayMs: 1 }, ...options });
  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => sandbox.fetch(new Request(input, init));
  const clientFor = (apiKey: string, extra: Partial<ClientOptions> = {}): Client =>
    createClient({ baseUrl: BASE_URL, apiKey, fetch, validateResponses: true, retry: false, ...extra });
  const request = async (method: string, path: string, body?: unknown, token = sandbox.adminToken): Promise<Response> =>
    sandbox.fetch(
      new Request(`${CONTROL_URL}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const ok = async <T>(res: Response): Promise<T> => {
    const text = await res.text();
    if (res.status >= 300) throw new Error(`control plane answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  const control: Control = {
    createOrganization: async (displayName) => ok(await request('POST', '/organizations', displayName === undefined ? {} : { display_name: displayName })),
    createApiKey: async (org, permissions) => (await ok<{ api_key: { key: string; permissions: string[] } }>(await request('POST', `/organizations/${org}/api-keys`, { permissions }))).api_key,
    loadFixtures: async (org, records) => (await ok<{ records: { kind: string; id: string }[] }>(await request('POST', `/organizations/${org}/fixtures`, { records }))).records,
    completeRun: async (org, body) => ok(await request('POST', `/organizations/${org}/run-completions`, { wait_for_deliveries: true, ...body })),
    sent: async (filter = {}) => {
      const q = new URLSearchParams(filter as Record<string, string>).toString();
      return (await ok<{ items: Record<string, unknown>[] }>(await request('GET', `/sent${q ? `?${q}` : ''}`))).items;
    },
    reset: async () => void (await ok(await request('POST', '/reset', {}))),
    request,
  };
  return {
    sandbox,
    client: clientFor(sandbox.apiKey),
    clientFor,
    raw: (path, init) => sandbox.fetch(new Request(`${BASE_URL}${path}`, { ...init, headers: { 'x-api-key': sandbox.apiKey, ...(init?.headers as Record<string, string> | undefined) } })),
    control,
    close: () => sandbox.close(),
  };
}

/** The ApiError a call fails with (fails the test when the call succeeds or throws something else). */
export async function failure(p: Promise<unknown>): Promise<ApiError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${error === undefined ? 'success' : String(error)}`);
  return error;
}
