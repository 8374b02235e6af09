// Organizations, their DEFAULT workspace and API keys: created by the control plane (and once, for the
// development organization, at first start).
import { alnum, secret } from './ids.js';
import type { Runtime } from './engine/context.js';
import { newRecordData } from './engine/records.js';
import type { ApiKeyRecord, Json, Organization } from './storage/store.js';

/** Every permission any operation names: the development key gets all of them. */
export function allPermissions(runtime: Runtime): string[] {
  return [...new Set(runtime.tables.routes.flatMap((r) => r.permissions))].sort();
}

export function createApiKey(runtime: Runtime, org: string, permissions: string[]): ApiKeyRecord {
  const key: ApiKeyRecord = { key: secret('sk_sandbox'), organization_id: org, permissions: [...new Set(permissions)].sort(), created_at: runtime.clock.now().toISOString() };
  runtime.store.putKey(key);
  return key;
}

export interface CreatedOrganization {
  organization: Organization;
  /** Null when the spec declares no workspace resource (issue 27: no workspaces unless declared). */
  default_workspace: Json | null;
  api_key: ApiKeyRecord;
}

export function createOrganization(runtime: Runtime, displayName: string, options: { key?: string; id?: string } = {}): CreatedOrganization {
  return runtime.store.transaction(() => {
    const now = runtime.clock.now().toISOString();
    const id = options.id ?? `org_${alnum(12)}`;
    // The default workspace: the workspace resource's record with the values the spec gives it (x-workspace default),
    // the rest as a create gives them (defaults, the initial state, server fields).
    const workspaces = runtime.tables.workspace;
    // A spec without a workspace resource (any spec but ours, issue 27): the organization is the only scope.
    const ws = workspaces === null ? null : newRecordData(runtime, runtime.resource(workspaces.resource), workspaces.defaults, now);
    const record = workspaces === null || ws === null ? null : runtime.store.insert({ kind: workspaces.resource, id: String(ws.id), org: id, workspace: null, deleted: false, data: ws });
    const organization: Organization = { id, display_name: displayName, created_at: now, default_workspace_id: record?.id ?? '' };
    runtime.store.putOrganization(organization);
    const api_key = options.key
      ? { key: options.key, organization_id: id, permissions: allPermissions(runtime), created_at: now }
      : createApiKey(runtime, id, allPermissions(runtime));
    if (options.key) runtime.store.putKey(api_key);
    return { organization, default_workspace: ws, api_key };
  });
}
