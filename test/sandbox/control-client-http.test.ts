// The control plane's generated client over real HTTP, as a user's test suite logs in with it: `bearerToken` is the
// documented option; an option the control plane has no scheme for is a TypeError naming it before any request;
// a wrong token is the API's 401 envelope, typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient as createControlClient } from '../../generated/control-client/index.js';
import { createClient } from '../../generated/client/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
let server: Awaited<ReturnType<Sandbox['listen']>>;

beforeAll(async () => {
  sandbox = await createSandbox({ db: ':memory:' });
  server = await sandbox.listen({ port: 0 });
});
afterAll(async () => {
  await server.close();
  sandbox.close();
});

describe('the control client over HTTP', () => {
  it('logs in with bearerToken, makes an organization, and its key works on the API', async () => {
    const admin = createControlClient({ baseUrl: server.controlUrl, bearerToken: sandbox.adminToken, retry: false }).control;
    const made = await admin.createOrganization({ display_name: 'Over HTTP' });
    expect(made.organization.display_name).toBe('Over HTTP');
    const api = createClient({ baseUrl: server.baseUrl, apiKey: made.api_key.key, retry: false });
    const { workspaces } = await api.workspaces.listWorkspaces();
    const defaultId = (made.default_workspace as { id: string }).id;
    expect(workspaces.map((w) => [w.id, w.workspace_type])).toEqual([[defaultId, 'DEFAULT']]);
  });

  it('refuses apiKey (no scheme of the control plane takes it) at createClient, naming the option, not its value', () => {
    let thrown: unknown;
    try {
      createControlClient({ baseUrl: server.controlUrl, apiKey: 'sk_not_shown' } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toContain('apiKey');
    expect((thrown as Error).message).toContain('bearerToken');
    expect((thrown as Error).message).not.toContain('sk_not_shown');
  });

  it('a wrong token is 401 with the error envelope', async () => {
    const admin = createControlClient({ baseUrl: server.controlUrl, bearerToken: 'not-the-token', retry: false }).control;
    await expect(admin.createOrganization({})).rejects.toMatchObject({ name: 'ApiError', status: 401 });
  });
});
