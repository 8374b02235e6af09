// What the suite runs against: an API base URL with a key, and optionally what lets it check more (a second
// organization's key, a key without permissions, the sandbox control plane). A check that needs something
// missing is skipped with that reason, never passed.

export interface ControlAccess {
  /** An API key of the target's organization with exactly these permissions. */
  createApiKey(permissions: string[]): Promise<string>;
  /** The API key of a fresh, second organization. */
  createOtherOrganizationKey(): Promise<string>;
  loadFixtures(records: { kind: string; data: Record<string, unknown>; platform?: boolean }[]): Promise<{ kind: string; id: string }[]>;
  completeRun(body: Record<string, unknown>): Promise<{ run: Record<string, unknown>; sent: Record<string, unknown>[] }>;
}

export interface Target {
  name: string;
  /** Sends a request to `<base URL><path>` (path below the API's base, e.g. `/tags/abc`). */
  request(method: string, path: string, init?: { headers?: Record<string, string>; body?: string }): Promise<Response>;
  apiKey: string;
  /** Another organization's key (isolation checks). */
  otherApiKey?: string;
  /** A key of the same organization with no permissions (403 checks). */
  noPermissionKey?: string;
  control?: ControlAccess;
}

export function httpTarget(options: { baseUrl: string; apiKey: string; otherApiKey?: string; noPermissionKey?: string; control?: ControlAccess; fetch?: typeof fetch }): Target {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  return {
    name: base,
    apiKey: options.apiKey,
    ...(options.otherApiKey ? { otherApiKey: options.otherApiKey } : {}),
    ...(options.noPermissionKey ? { noPermissionKey: options.noPermissionKey } : {}),
    ...(options.control ? { control: options.control } : {}),
    request: (method, path, init = {}) => doFetch(`${base}${path}`, { method, headers: init.headers ?? {}, ...(init.body === undefined ? {} : { body: init.body }), signal: AbortSignal.timeout(30_000) }),
  };
}
