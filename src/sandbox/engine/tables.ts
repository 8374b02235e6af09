// The generated half of the sandbox, seen through the route-table contract (src/contracts/route-table.ts, the one
// definition the emitter also builds its rows by): the route table, the resources, the event handlers and the
// served documents (generated/sandbox), with the validators they reference.
export type { Route, ResourceRow, RouteRow, ResponseShape, FieldRule, FieldRoles, ParamRow, EventHandlerRow, WorkspaceRow } from '../../contracts/route-table.js';
import type { EventHandlerRow, ResourceRow, Route, RouteTable, WorkspaceRow } from '../../contracts/route-table.js';

export interface Tables {
  basePath: string;
  workspaceHeader: string | null;
  workspace: WorkspaceRow | null;
  routes: readonly Route[];
  resources: readonly ResourceRow[];
  handlers: readonly EventHandlerRow[];
  documents: readonly { name: string; document: unknown }[];
}

export async function loadGeneratedTables(): Promise<Tables> {
  // Typed by the contract, not by the generated declarations: generated output older than the contract fails
  // the type check here (besides `npm run generate -- --check`).
  const routes: RouteTable = await import('../../../generated/sandbox/routes.js');
  const docs = await import('../../../generated/sandbox/documents.js');
  return {
    basePath: routes.basePath,
    workspaceHeader: routes.workspaceHeader,
    workspace: routes.workspace,
    routes: routes.routes,
    resources: routes.resources,
    handlers: routes.handlers,
    documents: docs.documents,
  };
}
