// Pagination inferred for a list of a spec without our vocabulary (issue 27; docs/any-spec.md, "Pagination").
// A list is paged when it has
//   - a page-size query parameter (integer) named one of PAGE_SIZE,
//   - a page query parameter: an offset (OFFSET, integer), a page number (PAGE, integer) or a cursor (CURSOR,
//     string), and
//   - an answer object with one array property of the resource's records (the items) and a next field (NEXT_TOKEN: a
//     cursor, or a link when its name says link/url or its format is a URI) or a total (TOTAL, integer).
// A cursor needs a next field to come from (a link or a token). Anything else is not inferred: the sandbox answers
// the whole list.
import { refNameOf } from './defs-ref.js';
import type { ApiModel, JsonValue, Operation, Pagination, Parameter } from './ir.js';
import { isJsonMedia } from './media.js';

export const PAGE_SIZE = ['limit', 'pageSize', 'page_size', 'per_page', 'perPage', 'maxResults', 'max_results'];
export const OFFSET = ['offset', 'skip'];
export const PAGE = ['page', 'pageNumber', 'page_number'];
export const CURSOR = ['cursor', 'pageToken', 'page_token', 'after', 'starting_after', 'nextToken', 'next_token', 'continuationToken', 'marker'];
export const NEXT_TOKEN = ['nextPageToken', 'next_page_token', 'nextCursor', 'next_cursor', 'nextToken', 'next_token', 'cursor', 'next', 'nextLink', 'next_link', 'nextPageUrl', 'next_page_url', 'nextUrl', 'next_url', '@odata.nextLink'];
export const TOTAL = ['total', 'totalCount', 'total_count', 'totalResults', 'total_results', 'totalItems', 'total_items', 'totalSize'];

type Obj = Record<string, JsonValue>;
const objectOf = (node: unknown): Obj | undefined => (node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Obj) : undefined);

/** The schema a node stands for: `$ref`s and one-member `allOf`s followed (bounded). */
function resolved(model: ApiModel, node: unknown): Obj | undefined {
  let current = objectOf(node);
  for (let i = 0; i < 8 && current; i++) {
    const name = refNameOf(current);
    if (name !== undefined) current = objectOf(model.schemas[name]?.schema);
    else if (Array.isArray(current.allOf) && current.allOf.length === 1) current = objectOf(current.allOf[0]);
    else return current;
  }
  return current;
}

const types = (schema: Obj | undefined): string[] => (Array.isArray(schema?.type) ? (schema.type as string[]) : typeof schema?.type === 'string' ? [schema.type] : []);
const isInteger = (schema: Obj | undefined): boolean => types(schema).some((t) => t === 'integer' || t === 'number');

function queryParam(op: Operation, names: readonly string[], integer: boolean): Parameter | undefined {
  for (const name of names) {
    const p = op.parameters.query.find((q) => q.name === name);
    if (p && (integer ? isInteger(objectOf(p.schema)) : types(objectOf(p.schema)).includes('string') || types(objectOf(p.schema)).length === 0)) return p;
  }
  return undefined;
}

/** The pagination of list operation `op` of the resource whose schema is `resourceSchema`, when it is recognisable. */
export function inferPaging(model: ApiModel, op: Operation, resourceSchema: string): Pagination | undefined {
  const size = queryParam(op, PAGE_SIZE, true);
  if (!size) return undefined;
  const offset = queryParam(op, OFFSET, true);
  const pageNumber = offset ? undefined : queryParam(op, PAGE, true);
  const cursor = offset || pageNumber ? undefined : queryParam(op, CURSOR, false);
  const pageParam = offset ?? pageNumber ?? cursor;
  if (!pageParam) return undefined;
  const answer = op.responses.find((r) => /^2\d\d$/.test(r.status))?.content.find((c) => isJsonMedia(c.mediaType))?.schema;
  const properties = answerProperties(model, answer);
  if (!properties) return undefined;
  const resource = objectOf(model.schemas[resourceSchema]?.schema);
  const arrays = Object.keys(properties).filter((k) => {
    const prop = resolved(model, properties[k]);
    return types(prop).includes('array') && resolved(model, prop?.items) === resource;
  });
  if (arrays.length !== 1) return undefined;
  const next = NEXT_TOKEN.find((k) => Object.prototype.hasOwnProperty.call(properties, k) && types(resolved(model, properties[k])).includes('string'));
  const total = TOTAL.find((k) => Object.prototype.hasOwnProperty.call(properties, k) && isInteger(resolved(model, properties[k])));
  if (next === undefined && (total === undefined || cursor)) return undefined;
  const nextSchema = next === undefined ? undefined : resolved(model, properties[next]);
  const nextLink = next !== undefined && (/link|url/i.test(next) || /^(uri|url|iri|uri-reference)$/.test(String(nextSchema?.format ?? '')));
  return {
    items: arrays[0]!,
    pageSize: size.name,
    pageToken: pageParam.name,
    nextPageToken: next ?? null,
    ...(total !== undefined ? { total } : {}),
    ...(offset ? { style: 'offset' as const } : pageNumber ? { style: 'page' as const } : {}),
    ...(nextLink ? { nextLink: true } : {}),
  };
}

/**
 * An answer's properties, those of its `allOf` parts included (box's lists: a marker-paging part and an entries
 * part), or undefined when it declares none.
 */
function answerProperties(model: ApiModel, answer: unknown): Record<string, JsonValue> | undefined {
  const schema = resolved(model, answer);
  const out: Record<string, JsonValue> = {};
  const parts = Array.isArray(schema?.allOf) ? schema.allOf : [];
  for (const part of parts) for (const [k, v] of Object.entries(objectOf(resolved(model, part)?.properties) ?? {})) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(objectOf(schema?.properties) ?? {})) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return Object.keys(out).length > 0 ? out : undefined;
}
