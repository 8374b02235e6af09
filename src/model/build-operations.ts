// Paths of one document -> IR operations.
import { valueName } from '../encode/index.js';
import { pointerOf } from '../load/errors.js';
import type { HttpMethod, JsonValue, MediaContent, Operation, OperationResponse, Parameter, ParameterLocation, Provenance, RequestBody, ResponseHeader } from './ir.js';
import { UNSPECIFIED, fieldInfos } from './build-schemas.js';
import type { DocumentView } from './document-view.js';
import { discriminatorsOf } from './discriminators.js';
import { isJsonMedia } from './media.js';
import { parsePathKey } from './path-key.js';
import { VOCABULARY } from './vocabulary.js';

const METHODS: HttpMethod[] = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];
const LOCATIONS: ParameterLocation[] = ['path', 'query', 'header', 'cookie'];

export function collectOperations(view: DocumentView): Operation[] {
  const paths = view.root.paths;
  if (paths === undefined || paths === null) return [];
  const out: Operation[] = [];
  for (const path of Object.keys(paths as object)) {
    // Specification extensions (`x-...`) may sit beside the paths; they are not path items.
    if (path.startsWith('x-')) continue;
    const itemPointer = pointerOf(['paths', path]);
    const item = view.deref((paths as Record<string, unknown>)[path], itemPointer);
    for (const method of METHODS) {
      const raw = item.node[method];
      if (raw === undefined) continue;
      out.push(operation(view, path, method, item.node, view.reader.object(raw, `${itemPointer}/${method}`), `${itemPointer}/${method}`));
    }
  }
  return out;
}

function operation(view: DocumentView, pathKey: string, method: HttpMethod, item: Record<string, unknown>, op: Record<string, unknown>, pointer: string): Operation {
  const r = view.reader;
  // `/#X-Amz-Target=Svc.Op` is POST / selected by a header (rule 36): the path is the part before the suffix.
  const key = parsePathKey(pathKey);
  const path = key.path;
  if (view.policy === 'strict') r.onlyVocabulary(op, VOCABULARY.operation, pointer);
  const provenance = r.provenance(op, pointer, undefined);
  if (view.policy === 'strict' && provenance === undefined) r.fail(pointer, 'every operation needs x-provenance (seed, inferred or assumed)');
  const prov = provenance ?? UNSPECIFIED;
  const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [];
  const firstSegment = path.split('/').find((s) => s !== '' && !s.startsWith('{')) ?? 'default';
  // Derived from the whole key, so operations told apart only by their suffix get different ids.
  const id = typeof op.operationId === 'string' && op.operationId !== '' ? op.operationId : valueName(`${method} ${pathKey.replace(/[{}]/g, ' ')}`);
  const rootSecurity = view.root.security;
  const security = (op.security ?? rootSecurity ?? []) as Record<string, unknown>[];
  const semantics = r.operationSemantics(op, pointer);
  const params = parameters(view, item, op, pointer, prov);
  completePathTemplate(view, path, pathKey, params.path, prov);
  const discriminators = discriminatorsOf(key, params);
  return {
    id,
    spec: view.spec,
    method,
    path,
    ...(discriminators.length > 0 ? { discriminators } : {}),
    group: tags[0] ?? firstSegment.split(':')[0]!,
    ...(typeof op.summary === 'string' ? { summary: op.summary } : {}),
    ...(typeof op.description === 'string' ? { description: op.description } : {}),
    deprecated: op.deprecated === true,
    parameters: params,
    ...bodyOf(view, op, pointer, prov),
    responses: responses(view, op, pointer),
    security: Array.isArray(security) ? security.map((req) => Object.keys(req ?? {}).sort()) : [],
    provenance: prov,
    semantics,
    pointer,
  };
}

/**
 * The path as a client can request it. Every `{name}` of the template needs a path parameter (OpenAPI requires
 * one); a document that leaves one out gets it as a required string, the only reading the template allows, so
 * the client still has an argument for it. A `.` or `..` segment is refused: URL parsers remove it before sending.
 */
function completePathTemplate(view: DocumentView, path: string, pathKey: string, declared: Parameter[], inherited: Provenance): void {
  const names = new Set(declared.map((p) => p.name));
  for (const match of path.matchAll(/\{([^{}]+)\}/g)) {
    const name = match[1]!;
    if (names.has(name)) continue;
    names.add(name);
    declared.push({ name, in: 'path', required: true, deprecated: false, schema: { type: ['string'] }, style: 'simple', explode: false, provenance: inherited });
  }
  const dots = path.split('/').find((segment) => segment === '.' || segment === '..');
  if (dots !== undefined) view.reader.fail(pointerOf(['paths', pathKey]), `the path has a "${dots}" segment, which URL parsers remove, so the operation cannot be requested as written`);
}

function parameters(view: DocumentView, item: Record<string, unknown>, op: Record<string, unknown>, pointer: string, inherited: Provenance): Record<ParameterLocation, Parameter[]> {
  const merged = new Map<string, Parameter>();
  const add = (list: unknown, at: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => {
      const { node, pointer: p } = view.deref(entry, `${at}/${i}`);
      const param = parameter(view, node, p, inherited);
      merged.set(`${param.in}\u0000${param.in === 'header' ? param.name.toLowerCase() : param.name}`, param); // operation level overrides path level
    });
  };
  add(item.parameters, pointer.replace(/\/[^/]+$/, '/parameters'));
  add(op.parameters, `${pointer}/parameters`);
  const grouped = Object.fromEntries(LOCATIONS.map((l) => [l, [] as Parameter[]])) as Record<ParameterLocation, Parameter[]>;
  for (const p of merged.values()) grouped[p.in].push(p);
  return grouped;
}

function parameter(view: DocumentView, node: Record<string, unknown>, pointer: string, inherited: Provenance): Parameter {
  const r = view.reader;
  if (view.policy === 'strict') r.onlyVocabulary(node, VOCABULARY.parameter, pointer);
  const location = r.oneOf(node.in, LOCATIONS, `${pointer}/in`);
  const name = r.string(node.name, `${pointer}/name`);
  let schemaInput: unknown = node.schema;
  let schemaPointer = `${pointer}/schema`;
  if (schemaInput === undefined && node.content && typeof node.content === 'object') {
    const first = Object.keys(node.content)[0];
    if (first !== undefined) {
      schemaInput = ((node.content as Record<string, Record<string, unknown>>)[first] ?? {}).schema;
      schemaPointer = `${pointer}/content/${first}/schema`;
    }
  }
  const style = typeof node.style === 'string' ? node.style : location === 'query' || location === 'cookie' ? 'form' : 'simple';
  const scope = r.scope(node, pointer);
  const listQuery = r.listQuery(node, pointer);
  return {
    name,
    in: location,
    required: location === 'path' ? true : node.required === true,
    ...(typeof node.description === 'string' ? { description: node.description } : {}),
    deprecated: node.deprecated === true,
    schema: schemaInput === undefined ? {} : view.schema(schemaInput, schemaPointer),
    style,
    explode: typeof node.explode === 'boolean' ? node.explode : style === 'form',
    provenance: r.provenance(node, pointer, inherited) ?? inherited,
    ...(scope ? { scope } : {}),
    ...(listQuery ? { listQuery } : {}),
  };
}

function bodyOf(view: DocumentView, op: Record<string, unknown>, pointer: string, inherited: Provenance): { requestBody?: RequestBody } {
  if (op.requestBody === undefined) return {};
  const { node, pointer: p } = view.deref(op.requestBody, `${pointer}/requestBody`);
  if (view.policy === 'strict') view.reader.onlyVocabulary(node, VOCABULARY.other, p);
  const provenance = view.reader.provenance(node, p, inherited) ?? inherited;
  const content = mediaContents(view, node.content, `${p}/content`);
  // Field semantics of the JSON body (x-null, x-replace, ...) and whole-body rules (x-exactly-one-of).
  const json = jsonMedia(node.content);
  let fields = {};
  let semantics = {};
  if (json) {
    const schemaRaw = (node.content as Record<string, Record<string, unknown>>)[json]!.schema;
    if (schemaRaw !== undefined) {
      const target = view.deref(schemaRaw, `${p}/content/${json}/schema`);
      fields = fieldInfos(view, target.node, target.pointer, provenance);
      semantics = view.reader.schemaSemantics(target.node, target.pointer);
    }
  }
  return {
    requestBody: {
      required: node.required === true,
      ...(typeof node.description === 'string' ? { description: node.description } : {}),
      content,
      provenance,
      fields,
      semantics,
    },
  };
}

function responses(view: DocumentView, op: Record<string, unknown>, pointer: string): OperationResponse[] {
  const raw = op.responses;
  if (raw === null || typeof raw !== 'object') return [];
  const out: OperationResponse[] = [];
  for (const status of Object.keys(raw).sort()) {
    const at = `${pointer}/responses/${status}`;
    const { node, pointer: p } = view.deref((raw as Record<string, unknown>)[status], at);
    if (view.policy === 'strict') view.reader.onlyVocabulary(node, VOCABULARY.other, p);
    const headers: ResponseHeader[] = [];
    if (node.headers && typeof node.headers === 'object') {
      for (const name of Object.keys(node.headers).sort()) {
        const h = view.deref((node.headers as Record<string, unknown>)[name], `${p}/headers/${name}`);
        headers.push({
          name,
          required: h.node.required === true,
          schema: h.node.schema === undefined ? {} : view.schema(h.node.schema, `${h.pointer}/schema`),
          ...(typeof h.node.description === 'string' ? { description: h.node.description } : {}),
        });
      }
    }
    out.push({ status, description: typeof node.description === 'string' ? node.description : '', content: mediaContents(view, node.content, `${p}/content`), headers });
  }
  return out;
}

function mediaContents(view: DocumentView, content: unknown, pointer: string): MediaContent[] {
  if (content === null || typeof content !== 'object') return [];
  return Object.keys(content).map((mediaType) => {
    const media = view.reader.object((content as Record<string, unknown>)[mediaType], `${pointer}/${mediaType.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    const examples: JsonValue[] = [];
    if (media.example !== undefined) examples.push(media.example as JsonValue);
    if (media.examples && typeof media.examples === 'object') {
      for (const key of Object.keys(media.examples)) {
        const ex = (media.examples as Record<string, unknown>)[key];
        const resolved = ex && typeof ex === 'object' && typeof (ex as { $ref?: unknown }).$ref === 'string' ? view.deref(ex, pointer).node : (ex as Record<string, unknown>);
        if (resolved && 'value' in resolved) examples.push(resolved.value as JsonValue);
      }
    }
    const p = `${pointer}/${mediaType.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return { mediaType, schema: media.schema === undefined ? {} : view.schema(media.schema, `${p}/schema`), examples };
  });
}

/** The JSON media type of a content map (application/json or any +json), if any. */
export function jsonMedia(content: unknown): string | undefined {
  if (content === null || typeof content !== 'object') return undefined;
  return Object.keys(content).find(isJsonMedia);
}
