// Loaded documents -> one ApiModel. Generic: nothing here knows the Evaluation Platform API.
import { createHash } from 'node:crypto';
import { SpecError } from '../load/errors.js';
import { canonicalJson, type LoadedDocument } from '../load/index.js';
import type { ApiModel, CatalogEntry, EventHandler, NamedSchema, Operation, SecurityScheme } from './ir.js';
import { collectOperations } from './build-operations.js';
import { collectSchemas, planSchemaNames, sortRecord } from './build-schemas.js';
import { DocumentView, type Policy } from './document-view.js';
import { checkReferences } from './check-references.js';
import { checkSchemaCycles } from './schema-cycles.js';
import { inferSemantics } from './infer-semantics.js';
import { VOCABULARY, type KnownNames } from './vocabulary.js';
import { setOwn } from '../data/own-property.js';

export type { Policy } from './document-view.js';

export interface BuildOptions {
  /** `strict` (our spec/): provenance everywhere, only vocabulary extensions. `lenient`: any public spec. */
  policy: Policy;
  /** The rule and event names the spec may use; without it, names are not checked (see KnownNames). */
  known?: KnownNames;
}

export function buildModel(docs: LoadedDocument[], options: BuildOptions): ApiModel {
  if (docs.length === 0) throw new SpecError('(catalog)', '#', 'no documents to build a model from');
  const views = docs.map((doc) => new DocumentView(doc, options.policy, options.known));
  planSchemaNames(views);

  const schemas: Record<string, NamedSchema> = {};
  const operations: Operation[] = [];
  const securitySchemes: Record<string, SecurityScheme> = {};
  const handlers: EventHandler[] = [];
  const catalog: CatalogEntry[] = [];
  const opIds = new Map<string, string>();

  for (const view of views) {
    if (options.policy === 'strict') view.reader.onlyVocabulary(view.root, VOCABULARY.root, '#');
    const ops = collectOperations(view);
    for (const op of ops) {
      const owner = opIds.get(op.id);
      if (owner !== undefined) {
        if (options.policy === 'strict') view.reader.fail(op.pointer, `operationId ${JSON.stringify(op.id)} is also used by spec ${owner}`);
        op.id = `${view.spec}.${op.id}`;
      }
      opIds.set(op.id, view.spec);
    }
    operations.push(...ops);
    collectSecuritySchemes(view, securitySchemes, options.policy);
    handlers.push(...view.reader.handlers(view.root).map((h) => ({ spec: view.spec, ...h })));
    catalog.push(catalogEntry(view, ops));
    // After the operations, so schemas reached only through refs found in them (synthetic names) are included.
    collectSchemas(view, schemas);
  }

  operations.sort((a, b) => (a.path === b.path ? METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method) : a.path < b.path ? -1 : 1));
  const model: ApiModel = {
    title: catalog.length === 1 ? catalog[0]!.title : commonTitle(catalog),
    specHash: createHash('sha256').update(catalog.map((c) => `${c.name}:${c.hash}`).join('\n')).digest('hex'),
    catalog,
    schemas: sortRecord(schemas),
    operations,
    securitySchemes: sortRecord(securitySchemes),
    handlers,
    scopeHeaders: scopeHeaders(operations),
  };
  checkReferences(model, views);
  checkSchemaCycles(model);
  // A spec without our vocabulary: resources and actions inferred from its paths and methods (the explicit
  // vocabulary wins; our spec declares it, so nothing changes for it).
  const notes = inferSemantics(model);
  if (notes.length > 0) model.inferenceNotes = notes;
  return model;
}

const METHOD_ORDER = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

function collectSecuritySchemes(view: DocumentView, out: Record<string, SecurityScheme>, policy: Policy): void {
  const raw = (view.root.components as Record<string, unknown> | undefined)?.securitySchemes;
  if (raw === null || typeof raw !== 'object') return;
  for (const name of Object.keys(raw)) {
    const { node, pointer } = view.deref((raw as Record<string, unknown>)[name], `#/components/securitySchemes/${name}`);
    const type = view.reader.oneOf(node.type, ['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'] as const, `${pointer}/type`);
    const description = typeof node.description === 'string' ? { description: node.description } : {};
    const scheme: SecurityScheme =
      type === 'apiKey'
        ? { type, name: view.reader.string(node.name, `${pointer}/name`), in: view.reader.oneOf(node.in, ['header', 'query', 'cookie'] as const, `${pointer}/in`), ...description }
        : type === 'http'
          ? { type, scheme: view.reader.string(node.scheme, `${pointer}/scheme`), ...(typeof node.bearerFormat === 'string' ? { bearerFormat: node.bearerFormat } : {}), ...description }
          : { type, ...description };
    // Own lookups and definitions: a scheme may be called `__proto__` or `constructor`.
    const existing = Object.prototype.hasOwnProperty.call(out, name) ? out[name] : undefined;
    if (existing && canonicalJson(existing) !== canonicalJson(scheme)) {
      if (policy === 'strict') view.reader.fail(pointer, `security scheme ${name} differs from the one of the same name in another document`);
      continue;
    }
    setOwn(out, name, scheme);
  }
}

function catalogEntry(view: DocumentView, ops: Operation[]): CatalogEntry {
  const info = (view.root.info ?? {}) as Record<string, unknown>;
  const servers = Array.isArray(view.root.servers) ? view.root.servers.map((s) => String((s as { url?: unknown })?.url ?? '')).filter((u) => u !== '') : [];
  return {
    name: view.spec,
    title: typeof info.title === 'string' ? info.title : view.spec,
    version: typeof info.version === 'string' ? info.version : '',
    openapi: String(view.root.openapi ?? ''),
    hash: view.doc.hash,
    operationIds: ops.map((o) => o.id),
    servers,
    ...(typeof info.description === 'string' ? { description: info.description } : {}),
  };
}

function commonTitle(catalog: CatalogEntry[]): string {
  // "Evaluation Platform API: Tags" + "... : Agents" -> "Evaluation Platform API".
  const prefixes = catalog.map((c) => c.title.split(':')[0]!.trim());
  return prefixes.every((p) => p === prefixes[0]) ? prefixes[0]! : catalog[0]!.title;
}

function scopeHeaders(operations: Operation[]): ApiModel['scopeHeaders'] {
  const names = new Set(operations.flatMap((o) => o.parameters.header.filter((p) => p.scope === 'workspace').map((p) => p.name)));
  const list = [...names].sort();
  if (list.length > 1) throw new SpecError('(catalog)', '#', `the workspace is selected by different headers: ${list.join(', ')}`);
  return list.length === 1 ? { workspace: list[0]! } : {};
}
