// facts-shapes 2.1 (workspaces, overlay), 3.1 and E37, by hand; section 5 for the create body and status.
import { type FactRow, type FieldSpec, f } from './row.js';

const WORKSPACE: Record<string, FieldSpec> = {
  id: { type: 'string', required: true },
  slug: { type: 'string', required: true },
  display_name: { type: 'string', required: true },
  status: { type: 'string', required: true, enum: ['ACTIVE', 'ARCHIVED', 'DELETED'] },
  workspace_type: { type: 'string', required: true, enum: ['DEFAULT', 'CUSTOM'] },
  created_at: { type: 'string', required: true },
  last_updated_at: { type: 'string', required: true },
};

export const rows: FactRow[] = [
  { method: 'GET', path: '/workspaces', status: 200, wrapper: 'workspaces', response: WORKSPACE },
  { method: 'POST', path: '/workspaces', status: 201, wrapper: 'workspace', body: { display_name: f('string*'), slug: f('string|null') }, response: WORKSPACE },
  { method: 'GET', path: '/workspaces/{workspace_id}', status: 200, wrapper: 'workspace', response: WORKSPACE },
  { method: 'PATCH', path: '/workspaces/{workspace_id}', status: 200, wrapper: 'workspace', body: { display_name: f('string*') }, response: WORKSPACE },
  { method: 'DELETE', path: '/workspaces/{workspace_id}', status: 200, wrapper: 'workspace', response: WORKSPACE },
  { method: 'POST', path: '/workspaces/{workspace_id}/archive', status: 200, wrapper: 'workspace', response: WORKSPACE },
];
