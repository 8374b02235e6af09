// The conformance suite against the sandbox of a spec without our vocabulary (issue 27): museum's route table,
// documents and suite data are rendered in memory and imported from a scratch folder; the in-process sandbox
// serves that table, and the generic checks run with the credential of museum's scheme (HTTP basic).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import { runSuite } from '../../src/conformance/run.js';
import { renderSpec } from '../../src/pipeline.js';
import { findOracle } from '../support/oracles.js';

const CORPUS = findOracle('corpus').dir;

async function generatedFor(spec: string): Promise<string> {
  const rendered = await renderSpec(spec);
  const dir = mkdtempSync(join(tmpdir(), 'any-conformance-'));
  for (const [path, text] of rendered) {
    if (!/^(client|sandbox|conformance)\/[^/]+\.js$/.test(path)) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  return dir;
}

describe.skipIf(CORPUS === undefined)('conformance against the sandbox of a spec without our vocabulary', () => {
  it('museum: every generic check that applies passes', async () => {
    const dir = await generatedFor(join(CORPUS!, 'museum', 'openapi.yaml'));
    const load = (path: string) => import(pathToFileURL(join(dir, path)).href);
    const [routes, docs, suite] = await Promise.all([load('sandbox/routes.js'), load('sandbox/documents.js'), load('conformance/suite.js')]);
    const tables = { basePath: routes.basePath, workspaceHeader: routes.workspaceHeader, workspace: routes.workspace, routes: routes.routes, resources: routes.resources, handlers: routes.handlers, documents: docs.documents };
    const { target, sandbox } = await inProcessTarget({ tables });
    try {
      const results = await runSuite(target, { suite: { routes: suite.routes, resources: suite.resources, handlers: suite.handlers, defs: suite.defs, schemas: suite.schemas, workspaceHeader: suite.workspaceHeader } });
      // Museum lets the client send eventId (format uuid): every create sends a fresh one (fresh-values.ts).
      const failed = results.filter((r) => r.outcome === 'fail').map((r) => `${r.operation} | ${r.check} | ${r.detail}`);
      expect(failed).toEqual([]);
      // The stateful checks ran on the inferred resource: create, read back, list, not found, isolation.
      const ran = new Set(results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check.split(':')[0]}`));
      for (const expected of ['createSpecialEvent records', 'getSpecialEvent not found', 'getSpecialEvent isolation', 'listSpecialEvents auth']) expect(ran).toContain(expected);
      expect(results.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(40);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});
