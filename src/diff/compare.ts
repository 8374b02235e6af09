// Two models compared for a consumer of the generated client: every operation (matched by method and path),
// its parameters, body, responses and security, and the named schemas (each an exported type). The result is
// sorted, so the same two models always give the same report. Reads only the model (src/model/ir.ts).
import type { ApiModel, MediaContent, Operation, Parameter } from '../model/ir.js';
import type { Change, Level } from './change.js';
import { compareSchema, type Direction } from './compare-schema.js';
import { join } from './pointer.js';

/**
 * `GET /tags/{}`: path parameters renamed are the same operation. Operations sharing a path (rule 36: AWS's POST /)
 * are told apart by what selects them (`POST / X-Amz-Target=Svc.CreateX`).
 */
function operationKey(op: Operation): string {
  const selected = (op.discriminators ?? []).map((d) => ` ${d.in === 'header' ? d.name.toLowerCase() : d.name}${d.value === undefined ? '' : `=${d.value}`}`).join('');
  return `${op.method.toUpperCase()} ${op.path.replace(/\{[^}]*\}/g, '{}')}${selected}`;
}

function operationPointer(op: Operation): string {
  return join('#', 'paths', op.path, op.method);
}

function text(changes: Change[], level: Level, kind: string, subject: string, pointer: string, detail?: string): void {
  changes.push({ level, kind, subject, pointer, ...(detail === undefined ? {} : { detail }) });
}

function schemaContext(before: ApiModel, after: ApiModel, subject: string, direction: Direction, changes: Change[]) {
  return { before, after, subject, direction, changes, seen: new Set<string>() };
}

function compareContent(before: ApiModel, after: ApiModel, changes: Change[], subject: string, direction: Direction, a: MediaContent[], b: MediaContent[], pointer: string): void {
  for (const media of a) {
    const other = b.find((m) => m.mediaType === media.mediaType);
    const at = join(pointer, 'content', media.mediaType);
    if (!other) text(changes, 'breaking', `${direction}-media-type-removed`, subject, at);
    else compareSchema(schemaContext(before, after, subject, direction, changes), media.schema, other.schema, join(at, 'schema'));
  }
  for (const media of b) if (!a.some((m) => m.mediaType === media.mediaType)) text(changes, 'non-breaking', `${direction}-media-type-added`, subject, join(pointer, 'content', media.mediaType));
}

function parameterKey(p: Parameter): string {
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

function compareParameters(before: ApiModel, after: ApiModel, changes: Change[], a: Operation, b: Operation): void {
  const subject = b.id;
  const listA = Object.values(a.parameters).flat();
  const listB = Object.values(b.parameters).flat();
  for (const p of listA) {
    const at = join(operationPointer(b), 'parameters', p.in, p.name);
    const q = listB.find((x) => parameterKey(x) === parameterKey(p));
    if (!q) {
      text(changes, 'breaking', 'request-parameter-removed', subject, at);
      continue;
    }
    if (!p.required && q.required) text(changes, 'breaking', 'request-parameter-became-required', subject, at);
    if (p.required && !q.required) text(changes, 'non-breaking', 'request-parameter-became-optional', subject, at);
    if (!p.deprecated && q.deprecated) text(changes, 'non-breaking', 'request-parameter-deprecated', subject, at);
    if (p.style !== q.style || p.explode !== q.explode) text(changes, 'breaking', 'request-parameter-style-changed', subject, at, `${p.style}/${p.explode} -> ${q.style}/${q.explode}`);
    if ((p.description ?? '') !== (q.description ?? '')) text(changes, 'description', 'description-changed', subject, join(at, 'description'));
    compareSchema(schemaContext(before, after, subject, 'request', changes), p.schema, q.schema, join(at, 'schema'));
  }
  for (const q of listB) {
    if (listA.some((p) => parameterKey(p) === parameterKey(q))) continue;
    const at = join(operationPointer(b), 'parameters', q.in, q.name);
    text(changes, q.required ? 'breaking' : 'non-breaking', q.required ? 'new-required-request-parameter' : 'new-optional-request-parameter', subject, at);
  }
}

function compareBody(before: ApiModel, after: ApiModel, changes: Change[], a: Operation, b: Operation): void {
  const at = join(operationPointer(b), 'requestBody');
  const x = a.requestBody;
  const y = b.requestBody;
  if (!x && !y) return;
  if (x && !y) return text(changes, 'breaking', 'request-body-removed', b.id, at);
  if (!x && y) return text(changes, y.required ? 'breaking' : 'non-breaking', y.required ? 'request-body-added-required' : 'request-body-added-optional', b.id, at);
  if (!x!.required && y!.required) text(changes, 'breaking', 'request-body-became-required', b.id, at);
  if (x!.required && !y!.required) text(changes, 'non-breaking', 'request-body-became-optional', b.id, at);
  if ((x!.description ?? '') !== (y!.description ?? '')) text(changes, 'description', 'description-changed', b.id, join(at, 'description'));
  compareContent(before, after, changes, b.id, 'request', x!.content, y!.content, at);
}

function compareResponses(before: ApiModel, after: ApiModel, changes: Change[], a: Operation, b: Operation): void {
  for (const r of a.responses) {
    const at = join(operationPointer(b), 'responses', r.status);
    const s = b.responses.find((x) => x.status === r.status);
    const success = /^2/.test(r.status);
    if (!s) {
      // A success answer removed breaks code that handles it; an error status removed does not.
      text(changes, success ? 'breaking' : 'non-breaking', success ? 'response-success-status-removed' : 'response-non-success-status-removed', b.id, at);
      continue;
    }
    if (r.description !== s.description) text(changes, 'description', 'description-changed', b.id, join(at, 'description'));
    compareContent(before, after, changes, b.id, 'response', r.content, s.content, at);
    for (const h of r.headers) {
      const k = s.headers.find((x) => x.name.toLowerCase() === h.name.toLowerCase());
      const hat = join(at, 'headers', h.name);
      if (!k) text(changes, 'breaking', 'response-header-removed', b.id, hat);
      else compareSchema(schemaContext(before, after, b.id, 'response', changes), h.schema, k.schema, join(hat, 'schema'));
    }
    for (const k of s.headers) if (!r.headers.some((h) => h.name.toLowerCase() === k.name.toLowerCase())) text(changes, 'non-breaking', 'response-header-added', b.id, join(at, 'headers', k.name));
  }
  for (const s of b.responses) {
    if (a.responses.some((r) => r.status === s.status)) continue;
    text(changes, 'non-breaking', /^2/.test(s.status) ? 'response-success-status-added' : 'response-non-success-status-added', b.id, join(operationPointer(b), 'responses', s.status));
  }
}

function compareSecurity(changes: Change[], a: Operation, b: Operation): void {
  const at = join(operationPointer(b), 'security');
  const alternatives = (op: Operation): string[] => op.security.map((alt) => [...alt].sort().join(' + '));
  const xa = alternatives(a);
  const xb = alternatives(b);
  const anonymous = (list: string[]): boolean => list.length === 0 || list.includes('');
  if (anonymous(xa) && !anonymous(xb)) return text(changes, 'breaking', 'api-security-added', b.id, at, xb.join(' | '));
  if (!anonymous(xa) && anonymous(xb)) return text(changes, 'non-breaking', 'api-security-removed', b.id, at, xa.join(' | '));
  // Every alternative a client may be using must stay; new ones only add ways in.
  for (const alt of xa) if (!xb.includes(alt)) text(changes, 'breaking', 'api-security-alternative-removed', b.id, at, alt);
  for (const alt of xb) if (!xa.includes(alt)) text(changes, 'non-breaking', 'api-security-alternative-added', b.id, at, alt);
}

function compareOperation(before: ApiModel, after: ApiModel, changes: Change[], a: Operation, b: Operation): void {
  const at = operationPointer(b);
  if (a.id !== b.id) text(changes, 'breaking', 'api-operation-id-changed', b.id, join(at, 'operationId'), `${a.id} -> ${b.id}`);
  if (a.group !== b.group) text(changes, 'breaking', 'api-client-group-changed', b.id, join(at, 'tags'), `${a.group} -> ${b.group}`);
  if (!a.deprecated && b.deprecated) text(changes, 'non-breaking', 'endpoint-deprecated', b.id, join(at, 'deprecated'));
  if (a.deprecated && !b.deprecated) text(changes, 'non-breaking', 'endpoint-reactivated', b.id, join(at, 'deprecated'));
  if ((a.summary ?? '') !== (b.summary ?? '')) text(changes, 'description', 'summary-changed', b.id, join(at, 'summary'));
  if ((a.description ?? '') !== (b.description ?? '')) text(changes, 'description', 'description-changed', b.id, join(at, 'description'));
  compareParameters(before, after, changes, a, b);
  compareBody(before, after, changes, a, b);
  compareResponses(before, after, changes, a, b);
  compareSecurity(changes, a, b);
}

const LEVEL_ORDER: Record<Level, number> = { breaking: 0, 'non-breaking': 1, description: 2 };

/** The model without what names its source bytes (hashes): equal texts mean nothing a consumer sees changed. */
function comparable(model: ApiModel): string {
  const { specHash: _hash, catalog, ...rest } = model;
  return JSON.stringify({ ...rest, catalog: catalog.map(({ hash: _h, ...entry }) => entry) });
}

export function compareModels(before: ApiModel, after: ApiModel): Change[] {
  // The usual run (an unchanged spec) is answered without walking every operation's schemas.
  if (comparable(before) === comparable(after)) return [];
  const changes: Change[] = [];
  const beforeOps = new Map(before.operations.map((op) => [operationKey(op), op]));
  const afterOps = new Map(after.operations.map((op) => [operationKey(op), op]));
  for (const [key, op] of beforeOps) {
    const other = afterOps.get(key);
    if (!other) text(changes, 'breaking', op.deprecated ? 'api-removed-after-deprecation' : 'api-removed-without-deprecation', op.id, operationPointer(op));
    else compareOperation(before, after, changes, op, other);
  }
  for (const [key, op] of afterOps) if (!beforeOps.has(key)) text(changes, 'non-breaking', 'endpoint-added', op.id, operationPointer(op));
  // Each named schema is an exported type of the client: removing one breaks code that imports it.
  for (const name of Object.keys(before.schemas)) if (!Object.hasOwn(after.schemas, name)) text(changes, 'breaking', 'schema-removed', `schema ${name}`, join('#', 'components', 'schemas', name));
  for (const name of Object.keys(after.schemas)) if (!Object.hasOwn(before.schemas, name)) text(changes, 'non-breaking', 'schema-added', `schema ${name}`, join('#', 'components', 'schemas', name));
  for (const [name, scheme] of Object.entries(before.securitySchemes)) {
    const other = after.securitySchemes[name];
    const at = join('#', 'components', 'securitySchemes', name);
    if (!other) continue; // operations that used it report their security change
    const { description: _a, ...x } = scheme;
    const { description: _b, ...y } = other;
    if (JSON.stringify(x) !== JSON.stringify(y)) text(changes, 'breaking', 'security-scheme-changed', `scheme ${name}`, at, `${JSON.stringify(x)} -> ${JSON.stringify(y)}`);
    else if (scheme.description !== other.description) text(changes, 'description', 'description-changed', `scheme ${name}`, join(at, 'description'));
  }
  return changes.sort((p, q) => LEVEL_ORDER[p.level] - LEVEL_ORDER[q.level] || (p.subject < q.subject ? -1 : p.subject > q.subject ? 1 : 0) || (p.pointer < q.pointer ? -1 : p.pointer > q.pointer ? 1 : 0) || (p.kind < q.kind ? -1 : p.kind > q.kind ? 1 : 0));
}
