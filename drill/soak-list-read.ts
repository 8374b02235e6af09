// The soak's read-back of kinds the API has no get operation for (webhooks, thresholds, flows, baselines): their
// list, walked page by page, must hold every acknowledged create and none of the acknowledged deletes. Only records
// made under the parent the list is prepared with can be judged this way (a flow is listed under its metric); the
// others are counted as not readable, never as lost.
import { fillPath, type RequestSpec } from '../src/conformance/http.js';
import { nextPageParam } from '../src/conformance/paging.js';
import type { Route } from '../src/conformance/suite-data.js';
import { type Recorder, send } from './http.js';

/** A record the mix made: its id, whether an acknowledged delete removed it, and the path its create was sent to. */
export interface MadeRecord {
  id: string;
  deleted: boolean;
  /** The create's path parameters (its parents), so a listing under the same parents can be judged. */
  parent?: Record<string, string>;
}

export interface ListReadBack {
  /** Records judged through their list. */
  checked: number;
  /** What a list showed wrong: an acknowledged create missing, or an acknowledged delete still listed. */
  lost: string[];
  /** Records made under another parent than the list's: not judged. */
  elsewhere: number;
}

/** At most this many pages of one list are read (100 items each). */
const MAX_PAGES = 100;

/** Whether `made` was created under the parents `list` is prepared with. */
const underListedParent = (list: { route: Route; spec: RequestSpec }, made: MadeRecord): boolean =>
  list.route.params.path.every((p) => made.parent?.[p.name] !== undefined && made.parent[p.name] === list.spec.path?.[p.name]);

/** Walks `list` (every page) and judges each of `made` made under its parents. */
export async function readBackByList(rec: Recorder, base: string, key: string, list: { route: Route; spec: RequestSpec }, idField: string, made: readonly MadeRecord[]): Promise<ListReadBack> {
  const judged = made.filter((m) => underListedParent(list, m));
  const out: ListReadBack = { checked: 0, lost: [], elsewhere: made.length - judged.length };
  if (judged.length === 0) return out;
  const { route, spec } = list;
  const seen = new Set<string>();
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: Record<string, string> = { ...spec.query };
    if (route.pagination) {
      query[route.pagination.pageSize] = '100';
      if (token !== undefined) query[route.pagination.pageToken] = token;
      else delete query[route.pagination.pageToken];
    }
    const qs = Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
    const answer = await send(rec, 'soak', `read back ${route.id}`, 'GET', `${base}${fillPath(route, spec.path ?? {})}${qs}`, { headers: { ...spec.headers, 'X-API-Key': key }, timeoutMs: 30_000 });
    if (answer.status !== 200) {
      out.lost.push(`${route.resource}: its list ${route.id} answered ${answer.status === 0 ? `nothing (${answer.error})` : answer.status} on page ${page + 1}, so ${judged.length} records could not be read back`);
      return out;
    }
    const shape = route.success.shape;
    const items = shape.kind === 'list' ? (answer.body as Record<string, unknown>)[shape.items] : undefined;
    const list = Array.isArray(items) ? (items as Record<string, unknown>[]) : [];
    for (const item of list) if (typeof item?.[idField] === 'string') seen.add(item[idField] as string);
    token = nextPageParam(route, answer.body, { sent: token, size: 100, items: list.length });
    if (token === undefined) break;
  }
  for (const m of judged) {
    out.checked++;
    if (!m.deleted && !seen.has(m.id)) out.lost.push(`${route.resource} ${m.id}: created (acknowledged), missing from ${route.id}`);
    if (m.deleted && seen.has(m.id)) out.lost.push(`${route.resource} ${m.id}: deleted (acknowledged), still listed by ${route.id}`);
  }
  return out;
}
