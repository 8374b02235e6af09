// A spec without our vocabulary through its own sandbox and conformance suite, in memory (issue 27): its client,
// sandbox and conformance modules are rendered, written to a scratch folder and imported from there; the inferred
// sandbox starts in process and the spec's own generated suite runs against it. Shared by `npm run any-spec`
// (scripts/any-spec-conformance.ts), the directory sample (`npm run corpus -- --directory`, corpus-directory.ts)
// and the tests of the inference rules.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inProcessTarget } from '../src/conformance/in-process.js';
import { notRunChecks } from '../src/conformance/not-run.js';
import type { CheckResult } from '../src/conformance/result.js';
import { runSuite, type RunOptions } from '../src/conformance/run.js';
import type { SuiteData } from '../src/conformance/suite-data.js';
import { renderSpec } from '../src/pipeline.js';
import type { Tables } from '../src/sandbox/engine/tables.js';

export interface GeneratedSpec {
  tables: Tables;
  suite: SuiteData;
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
export async function conformanceOf(generated: GeneratedSpec, options: { checks?: RunOptions['checks'] } = {}): Promise<CheckResult[]> {
  const { target, sandbox } = await inProcessTarget({ tables: generated.tables });
  try {
    return await runSuite(target, { suite: generated.suite, ...options });
  } finally {
    await sandbox.close();
  }
}

/** The failures of a run, one readable line each (an empty list is a clean run). */
export const failures = (results: readonly CheckResult[]): string[] => results.filter((r) => r.outcome === 'fail').map((r) => `${r.operation} | ${r.check} | ${r.detail}`);

/** A failure's reason without what varies between operations (resource, paths, numbers, quoted values). */
export function reasonGroup(result: CheckResult): string {
  const detail = (result.detail ?? '')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\/[\w{}./-]+/g, '/…')
    .replace(/\b\d+\b/g, 'N')
    .replace(/^(create|get|list|update|delete) [\w-]+: /, '$1 <resource>: ')
    .slice(0, 160);
  return detail;
}

/** The failures grouped by reasonGroup, most first: [reason, count, one example line]. */
export function groupedFailures(results: readonly CheckResult[]): [string, number, string][] {
  const groups = new Map<string, { count: number; example: string }>();
  for (const r of results) {
    if (r.outcome !== 'fail') continue;
    const key = reasonGroup(r);
    const g = groups.get(key) ?? { count: 0, example: `${r.operation} | ${r.check} | ${(r.detail ?? '').slice(0, 300)}` };
    g.count++;
    groups.set(key, g);
  }
  return [...groups].map(([key, g]): [string, number, string] => [key, g.count, g.example]).sort((a, b) => b[1] - a[1]);
}

/** What one spec's sandbox and conformance run gave: the counts, or why the sandbox did not start. */
export type SandboxConformance =
  | { started: true; passed: number; failed: number; skipped: number; notRun: number; ms: number; groups: [string, number, string][]; error?: string }
  | { started: false; reason: string; ms: number };

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 300);

/**
 * Generates `spec` in memory, starts its inferred sandbox in process and runs its own suite against it. A sandbox
 * that cannot be generated, imported or started is `started: false` with the one-line reason (never a throw), so a
 * sweep over many specs goes on.
 */
export async function sandboxConformance(spec: string): Promise<SandboxConformance> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  let generated: GeneratedSpec;
  let running: Awaited<ReturnType<typeof inProcessTarget>>;
  try {
    generated = await generateFor(spec);
    running = await inProcessTarget({ tables: generated.tables });
  } catch (error) {
    return { started: false, reason: oneLine(error instanceof Error ? error.message : String(error)), ms: ms() };
  }
  try {
    const results = await runSuite(running.target, { suite: generated.suite });
    const count = (o: CheckResult['outcome']): number => results.filter((r) => r.outcome === o).length;
    return { started: true, passed: count('pass'), failed: count('fail'), skipped: count('skip'), notRun: notRunChecks(generated.suite).length + count('not-run'), ms: ms(), groups: groupedFailures(results) };
  } catch (error) {
    // The suite itself stopped (a bug of ours, not a failed check): said as such, and a gate counts it.
    return { started: true, passed: 0, failed: 0, skipped: 0, notRun: 0, ms: ms(), groups: [], error: oneLine(error instanceof Error ? error.message : String(error)) };
  } finally {
    await running.sandbox.close();
  }
}
