// A spec without our vocabulary, generated in memory (issue 27): its client, sandbox and conformance modules are
// written to a scratch folder and imported from there, so a test can start the inferred sandbox and run the
// conformance suite against it. `writeSpec` writes a small inline spec for tests that build their own.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import { runSuite } from '../../src/conformance/run.js';
import type { CheckResult } from '../../src/conformance/result.js';
import type { SuiteData } from '../../src/conformance/suite-data.js';
import { renderSpec } from '../../src/pipeline.js';
import type { Tables } from '../../src/sandbox/engine/tables.js';

export interface GeneratedSpec {
  tables: Tables;
  suite: SuiteData;
}

/** Writes `doc` as `openapi.yaml` in a scratch folder; returns its path. */
export function writeSpec(doc: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'any-spec-doc-'));
  const file = join(dir, 'openapi.yaml');
  writeFileSync(file, stringify(doc));
  return file;
}

/** The spec's route table, documents and conformance suite data, generated and imported from a scratch folder. */
export async function generateFor(spec: string): Promise<GeneratedSpec> {
  const rendered = await renderSpec(spec);
  const dir = mkdtempSync(join(tmpdir(), 'any-spec-'));
  for (const [path, text] of rendered) {
    if (!/^(client|sandbox|conformance)\/[^/]+\.js$/.test(path)) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  const load = (path: string) => import(pathToFileURL(join(dir, path)).href);
  const [routes, docs, suite] = await Promise.all([load('sandbox/routes.js'), load('sandbox/documents.js'), load('conformance/suite.js')]);
  return {
    tables: { basePath: routes.basePath, workspaceHeader: routes.workspaceHeader, workspace: routes.workspace, routes: routes.routes, resources: routes.resources, handlers: routes.handlers, documents: docs.documents },
    suite: { routes: suite.routes, resources: suite.resources, handlers: suite.handlers, defs: suite.defs, schemas: suite.schemas, workspaceHeader: suite.workspaceHeader },
  };
}

/** The conformance suite run in process against the spec's own inferred sandbox. */
export async function conformanceOf(generated: GeneratedSpec): Promise<CheckResult[]> {
  const { target, sandbox } = await inProcessTarget({ tables: generated.tables });
  try {
    return await runSuite(target, { suite: generated.suite });
  } finally {
    await sandbox.close();
  }
}

/** The failures of a run, one readable line each (an empty list is a clean run). */
export const failures = (results: readonly CheckResult[]): string[] => results.filter((r) => r.outcome === 'fail').map((r) => `${r.operation} | ${r.check} | ${r.detail}`);
