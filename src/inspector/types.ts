// The shapes the inspector's endpoints answer with, taken from the modules that produce them
// (src/sandbox/inspector): type-only imports, erased from the bundle.
export type { RecordSummary } from '../sandbox/inspector/state.js';
export type { FeedEvent } from '../sandbox/inspector/events.js';
export type { BaselinePlot as BaselinePlotData } from '../sandbox/inspector/baselines.js';
export type { ConversationOutput, RunConversation, RunDetail, RunSummary } from '../sandbox/inspector/runs.js';
export type { FieldDoc, OperationDoc, Provenance } from '../sandbox/inspector/reference.js';
import type { RecordSummary } from '../sandbox/inspector/state.js';

export type Json = Record<string, unknown>;

export interface Family {
  name: string;
  scope: string;
  versioned: boolean;
}

/** GET /inspector/api/session (handler.ts sessionView). */
export interface SessionInfo {
  role: 'admin' | 'key';
  organization_id: string | null;
  permissions: string[] | null;
  families: Family[];
  base_path: string;
  workspace_header: string | null;
}

export interface Workspace {
  id: string;
  display_name: string | null;
  status: string | null;
  deleted: boolean;
}

/** GET /inspector/api/organizations. */
export interface OrganizationInfo {
  id: string;
  display_name: string;
  created_at: string;
  default_workspace_id: string;
  workspaces: Workspace[];
}

/** GET /inspector/api/records/{kind}/{id} (state.ts recordDetail). */
export interface RecordDetail {
  summary: RecordSummary;
  json: Json;
  versions: { number: number; data: Json }[];
}
