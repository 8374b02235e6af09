import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildNames } from '../../src/emit/naming.js';
import { emitTypes } from '../../src/emit/types/emit-types.js';
import { buildModel } from '../../src/model/index.js';
import { renderFiles } from '../../src/write/write.js';
import { doc, ok, openapi } from '../support/docs.js';
import { typecheck } from '../support/typecheck.js';

const small = openapi(
  {
    '/things/{thing_id}': {
      patch: {
        operationId: 'updateThing',
        parameters: [
          { name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'X-Workspace', in: 'header', schema: { type: 'string' } },
          { name: 'page_size', in: 'query', schema: { type: 'integer' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        responses: { ...ok({ $ref: '#/components/schemas/Thing' }), '404': { description: 'missing' } },
      },
    },
  },
  {
    Thing: {
      description: 'A thing. */ alert("no") /*',
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'string', readOnly: true },
        name: { type: 'string', maxLength: 10 },
        secret: { type: 'string', writeOnly: true },
        status: { type: 'string', enum: ['ON', 'OFF'] },
        slug: { type: 'string', deprecated: true },
        parent: { anyOf: [{ $ref: '#/components/schemas/Thing' }, { type: 'null' }] },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        'odd-name': { type: ['integer', 'null'] },
      },
    },
    Color: { type: 'string', enum: ['red', 'green'] },
  },
);

async function typesFor(document: Record<string, unknown>): Promise<string> {
  const model = buildModel([doc('things', document)], { policy: 'lenient' });
  return emitTypes(model, buildNames(model)).contents;
}

describe('types emitter', () => {
  it('emits a small spec as expected', async () => {
    expect(await typesFor(small)).toMatchSnapshot();
  });

  it('leaves readOnly fields out of request types and writeOnly fields out of response types', async () => {
    const text = await typesFor(small);
    const read = /export type Thing = \{[\s\S]*?\n\};/.exec(text)![0];
    const write = /export type ThingInput = \{[\s\S]*?\n\};/.exec(text)![0];
    expect(read).toContain('id: string');
    expect(read).not.toContain('secret');
    expect(write).not.toMatch(/\bid: string/);
    expect(write).toContain('secret?: string');
    expect(write).toMatch(/parent\?: \(?ThingInput \| null\)?;/);
    expect(text).toContain('export type UpdateThingBody = ThingInput;');
    expect(text).toContain('export type UpdateThingResponse200 = Thing;');
  });

  it('exports enum value lists and marks deprecated fields', async () => {
    const text = await typesFor(small);
    expect(text).toContain('export const colorValues: readonly Color[] = ["red", "green"];');
    expect(text).toContain('export const thingStatusValues: readonly Thing["status"][] = ["ON", "OFF"];');
    expect(text).toMatch(/@deprecated\s*\*\/\s*slug\?: string;/);
  });

  it('escapes descriptions so they cannot close the comment', async () => {
    const text = await typesFor(small);
    expect(text).not.toContain('*/ alert');
    expect(text).toContain('*\\/ alert');
  });

  it('generates a package for spec/ that type-checks under --strict, used by a consumer program', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'types-'));
    const { renderSpec } = await import('../../src/pipeline.js');
    const files = await renderSpec('spec', { policy: 'strict' });
    for (const [path, contents] of files) {
      if (!path.startsWith('client/')) continue;
      mkdirSync(dirname(join(dir, path.slice('client/'.length))), { recursive: true });
      writeFileSync(join(dir, path.slice('client/'.length)), contents);
    }
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import type { Workspace, UpdateWorkspaceBody, UpdatePersonaBody, CreateWebhookBody, Webhook } from './types.js';
import { workspaceStatusValues } from './types.js';
const body: UpdateWorkspaceBody = { display_name: 'Team' };
const persona: UpdatePersonaBody = { name: null, voice: 'alloy', tags: [], interruption_rate: 'LOW' };
const hook: CreateWebhookBody = { type: 'job_complete', url: 'https://x.example', auth_token: 's' };
declare const ws: Workspace;
const status: 'ACTIVE' | 'ARCHIVED' | 'DELETED' = ws.status;
declare const webhook: Webhook;
// @ts-expect-error the token is write-only: it is not part of the response type
webhook.auth_token;
// @ts-expect-error display_name is required
const missing: UpdateWorkspaceBody = {};
export { body, persona, hook, status, missing, workspaceStatusValues };
`,
    );
    const dts = readdirSync(dir).filter((f) => f.endsWith('.d.ts')).map((f) => join(dir, f));
    expect(typecheck([...dts, join(dir, 'consumer.ts')])).toEqual([]);
  });
});

describe('rendering', () => {
  it('is byte-identical across runs and starts every file with the do-not-edit header', async () => {
    const model = buildModel([doc('things', small)], { policy: 'lenient' });
    const first = await renderFiles([emitTypes(model, buildNames(model))], model.specHash);
    const second = await renderFiles([emitTypes(model, buildNames(model))], model.specHash);
    expect([...first]).toEqual([...second]);
    for (const text of first.values()) expect(text.startsWith(`// Generated by evalplatform-toolchain from spec sha256:${model.specHash.slice(0, 16)}. Do not edit`)).toBe(true);
  });
});
