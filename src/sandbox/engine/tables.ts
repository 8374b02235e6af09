// The generated half of the sandbox, seen through types the engine owns: the route table, the resources,
// the event handlers and the served documents (generated/sandbox), with the validators they reference.
export type { Route, ResourceRow, RouteRow, ResponseShape, FieldRule, EventHandlerRow } from '../../../generated/sandbox/routes.js';
import type { EventHandlerRow, ResourceRow, Route } from '../../../generated/sandbox/routes.js';

export interface Tables {
  basePath: string;
  workspaceHeader: string | null;
  routes: readonly Route[];
  resources: readonly ResourceRow[];
  handlers: readonly EventHandlerRow[];
  documents: readonly { name: string; document: unknown }[];
}

export async function loadGeneratedTables(): Promise<Tables> {
  const routes = await import('../../../generated/sandbox/routes.js');
  const docs = await import('../../../generated/sandbox/documents.js');
  return {
    basePath: routes.basePath,
    workspaceHeader: routes.workspaceHeader,
    routes: routes.routes,
    resources: routes.resources,
    handlers: routes.handlers,
    documents: docs.documents,
  };
}
