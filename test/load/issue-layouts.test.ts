// The two layouts issue 27 found refused, rebuilt small: a multi-file spec whose model file holds a local ref
// (`$ref: '#/some_action'` inside resources/<family>/models/<file>.yml), and a ref into
// `#/paths/.../schema/allOf/0/properties/...` reached through another ref. Both must load, model, emit a client
// and compile under tsc --strict.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitAll } from '../../src/emit/index.js';
import { buildNames } from '../../src/emit/naming.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { typecheck } from '../support/typecheck.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'issue27-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const MODEL_FILE_LOCAL_REF = {
  'openapi.yaml': `openapi: 3.0.3
info: { title: Jobs, version: '1' }
paths:
  /jobs/{jobId}/actions:
    post:
      operationId: runAction
      parameters:
        - { name: jobId, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema: { $ref: 'resources/jobs/models/job_action.yml#/job_action_request' }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'resources/jobs/models/job_action.yml#/job_action_response' }
`,
  'resources/jobs/models/job_action.yml': `job_action_request:
  type: object
  required: [action]
  properties:
    action: { $ref: '#/some_action' }
job_action_response:
  type: object
  properties:
    action: { $ref: '#/some_action' }
    at: { type: string, format: date-time }
some_action:
  type: string
  enum: [start, stop, restart]
`,
};

const REF_INTO_PATHS_THROUGH_REF = {
  'openapi.yaml': `openapi: 3.1.0
info: { title: Reports, version: '1' }
paths:
  /reports:
    get:
      operationId: listReports
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - { $ref: '#/components/schemas/Page' }
                  - type: object
                    properties:
                      data: { type: array, items: { type: string } }
  /reports/summary:
    get:
      operationId: reportSummary
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  cursor: { $ref: '#/components/schemas/Cursor' }
components:
  schemas:
    Page:
      type: object
      properties:
        meta:
          type: object
          properties:
            next_cursor: { type: [string, 'null'] }
    Cursor: { $ref: '#/paths/~1reports/get/responses/200/content/application~1json/schema/allOf/0/properties/meta/properties/next_cursor' }
`,
};

describe('the layouts issue 27 found refused generate a client that compiles under --strict', () => {
  it.each([
    ['a local ref inside resources/<family>/models/<file>.yml', MODEL_FILE_LOCAL_REF, /"start" \| "stop" \| "restart"/],
    ['a ref into #/paths/.../allOf/0/properties/... reached through another ref', REF_INTO_PATHS_THROUGH_REF, /string \| null/],
  ])('%s', async (_name, files, typeText) => {
    const dir = folder(files);
    const docs = await loadSpecs(join(dir, 'openapi.yaml'));
    const model = buildModel(docs, { policy: 'lenient' });
    const emitted = emitAll(model, buildNames(model), { documents: docs, sandbox: false });
    const src = join(dir, 'out');
    const roots: string[] = [];
    for (const f of emitted) {
      if (!f.path.startsWith('client/')) continue;
      const target = join(src, f.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.contents);
      if (f.kind === 'module') roots.push(target);
    }
    expect(roots.length).toBeGreaterThan(3);
    expect(typecheck(roots)).toEqual([]);
    // The type the reference reaches is the one the document defines there (the enum of the model file; the
    // nullable string inside the path's allOf member).
    const types = emitted.find((f) => f.path === 'client/types.ts')!.contents;
    expect(types).toMatch(typeText);
  });
});
