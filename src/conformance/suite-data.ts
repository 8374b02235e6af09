// The generated suite (generated/conformance/suite.js) as the runner sees it.
import * as suite from '../../generated/conformance/suite.js';
import type { ResourceRow, Route } from '../../generated/conformance/suite.js';

export type { ResourceRow, Route };

export interface SuiteData {
  routes: readonly Route[];
  resources: readonly ResourceRow[];
  handlers: readonly { on: string; rule: string }[];
  defs: Record<string, unknown>;
  schemas: Record<string, { path: Record<string, unknown>; query: Record<string, unknown>; header: Record<string, unknown>; body: unknown }>;
  workspaceHeader: string | null;
}

export const generatedSuite: SuiteData = {
  routes: suite.routes,
  resources: suite.resources,
  handlers: suite.handlers,
  defs: suite.defs,
  schemas: suite.schemas,
  workspaceHeader: suite.workspaceHeader,
};
