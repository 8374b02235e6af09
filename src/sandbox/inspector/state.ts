// The state the inspector shows: organizations, their workspaces, and the records of every family, as the API
// presents them (schema properties only, writeOnly secrets left out), with their version history. Deleted
// records (soft-deleted, or in a lifecycle state that hides them) are included and marked.
import type { Runtime } from '../engine/context.js';
import { dropPath, isHidden, present } from '../engine/records.js';
import { redactRecord } from './redact-records.js';
import type { ResourceRow } from '../engine/tables.js';
import { notFound } from '../errors.js';
import type { Json, Organization, StoredRecord } from '../storage/store.js';
import { PLATFORM_ORG } from '../storage/store.js';
import { canRead, seesOrganization, type Session } from './auth.js';

export interface RecordSummary {
  kind: string;
  id: string;
  label: string;
  workspace: string | null;
  deleted: boolean;
  /** A platform record every organization sees (built-in metrics). */
  builtin: boolean;
  state: string | null;
  versions: number;
}

/** Organizations the session sees, oldest first: every organization has a workspace record, so they are found through them. */
export function organizations(runtime: Runtime, session: Session): Organization[] {
  const ids = session.role === 'admin' ? [...new Set(runtime.store.list('workspace', { includeDeleted: true }).map((w) => w.org))] : [session.org];
  return ids.map((id) => runtime.store.getOrganization(id)).filter((o): o is Organization => o !== undefined);
}

/** The organization named by `org` (the session's own, or the first one for the admin); 404 for one the session does not see. */
export function organizationFor(runtime: Runtime, session: Session, org: string | null): Organization {
  const wanted = org ?? (session.role === 'key' ? session.org : organizations(runtime, session)[0]?.id);
  const found = wanted !== undefined && seesOrganization(session, wanted) ? runtime.store.getOrganization(wanted) : undefined;
  if (!found) throw notFound('organization', 'organization');
  return found;
}

function labelOf(resource: ResourceRow, data: Json): string {
  for (const field of ['display_name', 'name', 'metric_name', 'tag_name', 'title', 'url']) {
    const value = data[field];
    if (typeof value === 'string' && value !== '' && !(field === 'name' && value.includes('/'))) return value;
  }
  return String(data[resource.id] ?? '');
}

function summary(runtime: Runtime, resource: ResourceRow, record: StoredRecord): RecordSummary {
  const lc = resource.lifecycle;
  return {
    kind: record.kind,
    id: record.id,
    label: labelOf(resource, record.data),
    workspace: record.workspace,
    deleted: isHidden(resource, record),
    builtin: record.org === PLATFORM_ORG,
    state: lc?.field ? String(record.data[lc.field] ?? '') || null : null,
    versions: resource.versioned ? runtime.store.listVersions(record.kind, record.id).length : 0,
  };
}

/** The families a session may read, in route-table order. */
export function families(runtime: Runtime, session: Session): ResourceRow[] {
  return runtime.tables.resources.filter((r) => canRead(runtime, session, r.name));
}

/**
 * An organization's records, searchable: `q` matches the id, the label or any presented value (case-insensitive);
 * `kind` and `workspace` narrow the families and the workspace (organization-scoped records always match).
 */
export function searchRecords(runtime: Runtime, session: Session, org: string, options: { q?: string; kind?: string; workspace?: string; builtin?: boolean }): RecordSummary[] {
  const q = (options.q ?? '').trim().toLowerCase();
  const out: RecordSummary[] = [];
  for (const resource of families(runtime, session)) {
    if (options.kind && resource.name !== options.kind) continue;
    for (const record of runtime.store.list(resource.name, { org, includeDeleted: true })) {
      if (record.org !== org && (record.org !== PLATFORM_ORG || !options.builtin)) continue;
      if (options.workspace && resource.scope === 'workspace' && record.workspace !== null && record.workspace !== options.workspace) continue;
      // Searched in the form shown, so a query cannot probe for a hidden secret.
      if (q !== '' && !record.id.toLowerCase().includes(q) && !JSON.stringify(redactRecord(present(resource, record))).toLowerCase().includes(q)) continue;
      out.push(summary(runtime, resource, record));
    }
  }
  return out;
}

/** One record as the API presents it, its summary, and its version history (newest first), secrets left out. */
export function recordDetail(runtime: Runtime, session: Session, kind: string, id: string): { summary: RecordSummary; json: Json; versions: { number: number; data: Json }[] } {
  const resource = runtime.tables.resources.find((r) => r.name === kind);
  const record = resource && canRead(runtime, session, kind) ? runtime.store.get(kind, id) : undefined;
  if (!resource || !record || !(record.org === PLATFORM_ORG || seesOrganization(session, record.org))) throw notFound('id', 'record');
  const versions = runtime.store.listVersions(kind, id).map((v) => {
    const data = JSON.parse(JSON.stringify(v.data)) as Json;
    for (const path of resource.writeOnly) dropPath(data, path);
    return { number: v.number, data: redactRecord(data) };
  });
  return { summary: summary(runtime, resource, record), json: redactRecord(present(resource, record)), versions };
}
