// The default target: the sandbox, in process, on `:memory:`, with its control plane (through the generated
// control client) so every check can run.
import { createClient as createControlClient } from '../../generated/control-client/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import type { ControlAccess, Target } from './target.js';

export async function inProcessTarget(options: Pick<SandboxOptions, 'rules'> = {}): Promise<{ target: Target; sandbox: Sandbox }> {
  const sandbox = await createSandbox({ db: ':memory:', log: () => {}, delivery: { attempts: 2, baseDelayMs: 1, timeoutMs: 1000 }, deliveryFetch: async () => ({ status: 204 }), ...options });
  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => sandbox.fetch(new Request(input, init));
  const base = 'http://sandbox.local';
  const admin = createControlClient({ baseUrl: `${base}/control`, fetch, headers: { authorization: `Bearer ${sandbox.adminToken}` }, retry: false }).control;
  const org = sandbox.organizationId;
  const control: ControlAccess = {
    createApiKey: async (permissions) => (await admin.createApiKey(org, { permissions })).api_key.key,
    createOtherOrganizationKey: async () => (await admin.createOrganization({ display_name: 'Conformance other organization' })).api_key.key,
    loadFixtures: async (records) => (await admin.loadFixtures(org, { records: records as never })).records,
    completeRun: async (body) => (await admin.completeRun(org, { wait_for_deliveries: true, ...body })) as { run: Record<string, unknown>; sent: Record<string, unknown>[] },
  };
  const target: Target = {
    name: 'in-process sandbox',
    apiKey: sandbox.apiKey,
    control,
    request: (method, path, init = {}) => sandbox.fetch(new Request(`${base}${sandbox.basePath}${path}`, { method, headers: init.headers ?? {}, ...(init.body === undefined ? {} : { body: init.body }) })),
  };
  return { target, sandbox };
}
