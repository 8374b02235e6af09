// Test harness for the sandbox: an in-process sandbox on `:memory:`, the generated client wired to its
// fetch handler, and the control plane (organizations, keys, fixtures, run completions, sent items).
import { ApiError, createClient, type Client, type ClientOptions } from '../../generated/client/index.js';
import { createClient as createControlClient } from '../../generated/control-client/index.js';
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
  changeFixture(organizationId: string, kind: string, id: string, change: { data?: Record<string, unknown>; deleted?: boolean }): Promise<{ kind: string; id: string; deleted: boolean; data: Record<string, unknown> }>;
  removeFixture(organizationId: string, kind: string, id: string): Promise<void>;
  archiveDefaultWorkspace(organizationId: string): Promise<Record<string, unknown>>;
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
  // The control plane through its generated client (src/sandbox/control/openapi.yaml -> generated/control-client).
  const admin = createControlClient({
    baseUrl: CONTROL_URL,
    fetch,
    bearerToken: sandbox.adminToken,
    validateResponses: true,
    retry: false,
  }).control;
  const control: Control = {
    createOrganization: async (displayName) =>
      (await admin.createOrganization(displayName === undefined ? {} : { display_name: displayName })) as Awaited<ReturnType<Control['createOrganization']>>,
    createApiKey: async (org, permissions) => (await admin.createApiKey(org, { permissions })).api_key,
    loadFixtures: async (org, records) => (await admin.loadFixtures(org, { records: records as never })).records,
    changeFixture: async (org, kind, id, change) => (await admin.changeFixture(org, kind, id, change)) as Awaited<ReturnType<Control['changeFixture']>>,
    removeFixture: async (org, kind, id) => void (await admin.removeFixture(org, kind, id)),
    archiveDefaultWorkspace: async (org) => (await admin.archiveDefaultWorkspace(org)).workspace,
    completeRun: async (org, body) => (await admin.completeRun(org, { wait_for_deliveries: true, ...body })) as Awaited<ReturnType<Control['completeRun']>>,
    sent: async (filter = {}) => (await admin.listSent({ query: filter as never })).items as Record<string, unknown>[],
    reset: async () => void (await admin.reset()),
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
