// What the suite runs against: an API base URL with a key, and optionally what lets it check more (a second
// organization's key, a key without permissions, the sandbox control plane). A check that needs something
// missing is skipped with that reason, never passed.
import { nodeRequest } from './node-request.js';

export interface ControlAccess {
  /** An API key of the target's organization with exactly these permissions. */
  createApiKey(permissions: string[]): Promise<string>;
  /** The API key of a fresh, second organization. */
  createOtherOrganizationKey(): Promise<string>;
  /** The API key of a fresh organization whose DEFAULT workspace is archived, so a call without the workspace header resolves none. */
  createOrganizationWithoutDefaultWorkspace?(): Promise<string>;
  /** `workspace_id: null` stores a legacy record without workspace; omitted, the sandbox picks the default workspace. */
  loadFixtures(records: { kind: string; data: Record<string, unknown>; platform?: boolean; workspace_id?: string | null }[]): Promise<{ kind: string; id: string }[]>;
  completeRun(body: Record<string, unknown>): Promise<{ run: Record<string, unknown>; sent: Record<string, unknown>[] }>;
  /** Resolves once the target's pending outbound deliveries (and their retries) are done (absent: no such signal). */
  idle?(): Promise<void>;
  /**
   * Whether the target executes the organization's launched runs itself (automatic) or leaves them for completeRun
   * (manual): checks that script a run's outcome launch it in manual mode (absent: the target has no such switch).
   */
  setRunExecution?(mode: 'automatic' | 'manual'): Promise<void>;
}

/** One HTTP call a receiver endpoint got, and what it answered. */
export interface ReceivedCall {
  method: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body parsed as JSON (the raw text when it is not JSON). */
  body: unknown;
  status: number;
}

/**
 * A client endpoint for outbound calls of the target (webhook deliveries): each URL it hands out answers with
 * the statuses a check chose and records every call, so checks can see payloads, headers and retries.
 */
export interface WebhookReceiver {
  /** A fresh URL whose calls are answered with `statuses` in turn, the last one repeating (default: 204). */
  endpoint(statuses?: number[]): string;
  /** The calls `url` got, oldest first, once the target's pending deliveries (and their retries) are done. */
  calls(url: string): Promise<ReceivedCall[]>;
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
  /** Where the target's webhook deliveries can be sent and observed. */
  receiver?: WebhookReceiver;
  /** How long a launched run may take to finish before the execution check fails (default 45 s). */
  runTimeoutMs?: number;
}

export function httpTarget(options: { baseUrl: string; apiKey: string; otherApiKey?: string; noPermissionKey?: string; control?: ControlAccess; receiver?: WebhookReceiver; fetch?: typeof fetch }): Target {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = 30_000;
  // Without a fetch of the caller's, node:http(s): it sends what fetch refuses to (node-request.ts).
  const send = (url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> =>
    options.fetch ? options.fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) }) : nodeRequest(url, { ...init, timeoutMs });
  return {
    name: base,
    apiKey: options.apiKey,
    ...(options.otherApiKey ? { otherApiKey: options.otherApiKey } : {}),
    ...(options.noPermissionKey ? { noPermissionKey: options.noPermissionKey } : {}),
    ...(options.control ? { control: options.control } : {}),
    ...(options.receiver ? { receiver: options.receiver } : {}),
    request: (method, path, init = {}) => send(`${base}${path}`, { method, headers: init.headers ?? {}, ...(init.body === undefined ? {} : { body: init.body }) }),
  };
}
