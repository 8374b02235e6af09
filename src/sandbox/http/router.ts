// Matches a method and path (below the API's base path) to a route. Literal segments win over parameters,
// segment by segment, so `/personas/voices` is never taken for `/personas/{persona_id}` and
// `/conversations:submit` never for `/conversations/{id}`. Operations sharing a method and path (AWS's POST / for
// every `X-Amz-Target`) are told apart by what the request carries (select.ts).
import { invalid } from '../errors.js';
import { type Carried, noOperationSelected, type Selector, selectWeight, selects } from './select.js';

export interface RouteLike {
  method: string;
  path: string;
  select?: readonly Selector[];
}

/**
 * A segment with parameters: literal text may stand around and between them (`{Sid}.json`: twilio;
 * `{record_id}.{format}`: digitalnz; issue 27). `literals` are the texts before, between and after the parameters
 * (one more than `params`); `affixed` says there is any.
 */
type ParamSegment = { params: string[]; literals: string[]; affixed: boolean };

interface Compiled<R> {
  route: R;
  segments: ({ literal: string } | ParamSegment)[];
}

function paramSegment(segment: string): ParamSegment | undefined {
  const pieces = segment.split(/\{([^{}]+)\}/);
  if (pieces.length < 3) return undefined;
  const params = pieces.filter((_, i) => i % 2 === 1);
  const literals = pieces.filter((_, i) => i % 2 === 0);
  return { params, literals, affixed: literals.some((l) => l !== '') };
}

/**
 * The parameters' values in `part`, or undefined when it does not match: each value non-empty, each but the last
 * ending at the first occurrence of the literal after it (`a.b.json` is `a` and `b` for `{id}.{format}.json`).
 * One pass, no backtracking, so a hostile path or spec cannot make matching slow; two parameters with nothing
 * between them cannot be told apart and match nothing.
 */
function matchSegment(seg: ParamSegment, part: string): string[] | undefined {
  const { params, literals } = seg;
  if (!part.startsWith(literals[0]!)) return undefined;
  const values: string[] = [];
  let at = literals[0]!.length;
  for (let k = 0; k < params.length; k++) {
    const after = literals[k + 1]!;
    if (k === params.length - 1) {
      if (part.length - after.length <= at || !part.endsWith(after)) return undefined;
      values.push(part.slice(at, part.length - after.length));
    } else {
      const end = after === '' ? -1 : part.indexOf(after, at + 1);
      if (end < 0) return undefined;
      values.push(part.slice(at, end));
      at = end + after.length;
    }
  }
  return values;
}

export interface Match<R> {
  route: R;
  params: Record<string, string>;
}

function compile<R extends RouteLike>(route: R): Compiled<R> {
  const segments = route.path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => paramSegment(s) ?? { literal: s });
  return { route, segments };
}

/** How specific a segment is: a literal, then a parameter with literal text around it, then a bare parameter. */
function rank(seg: Compiled<unknown>['segments'][number]): number {
  if ('literal' in seg) return 0;
  return seg.affixed ? 1 : 2;
}

/**
 * Literal-first order: compares segment kinds left to right. Paths of different lengths never compete, but they are
 * ordered by length first all the same: comparing only their common segments made `/ratings` tie with both
 * `/ratings/list` and `/ratings/{itemId}`, an order sort() need not keep, and `/ratings/list` was taken for the
 * template (issue 27, britbox).
 */
function specificity<R extends RouteLike>(a: Compiled<R>, b: Compiled<R>): number {
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const ra = rank(a.segments[i]!);
    const rb = rank(b.segments[i]!);
    if (ra !== rb) return ra - rb;
  }
  // One path, several operations: the one with more conditions first (`?scope=x&arn` before `?arn`).
  return selectWeight(b.route.select) - selectWeight(a.route.select);
}

export class Router<R extends RouteLike> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes.map(compile).sort(specificity);
  }

  /**
   * The route for `method path`, or undefined. Percent-decoding failures are 400 on the parameter. Of the routes
   * the path matches, the first whose `select` the request (`carried`) satisfies wins, bare parameter names
   * included; else the first whose fixed values it carries; a path whose every route needs a fixed value the
   * request lacks is 400 on that header or parameter. A table without `select` (ours) takes the first match, as
   * before.
   */
  match(method: string, path: string, carried: Carried = () => null): Match<R> | undefined {
    const candidates = this.candidates(method, path);
    const chosen = candidates.find((m) => selects(m.route.select, carried, true)) ?? candidates.find((m) => selects(m.route.select, carried, false));
    if (chosen !== undefined || candidates.length === 0) return chosen;
    throw noOperationSelected(method, path, candidates.map((m) => m.route), carried);
  }

  /** Every route of this method whose path matches, in the router's order. */
  private candidates(method: string, path: string): Match<R>[] {
    const out: Match<R>[] = [];
    const parts = path.split('/').filter((s) => s !== '');
    for (const c of this.compiled) {
      if (c.route.method !== method || c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = c.segments[i]!;
        const part = parts[i]!;
        if ('literal' in seg) {
          ok = seg.literal === part;
          continue;
        }
        const found = matchSegment(seg, part);
        if (!found) {
          ok = false;
          continue;
        }
        seg.params.forEach((name, k) => {
          try {
            params[name] = decodeURIComponent(found[k]!);
          } catch {
            throw invalid(name, 'is not a valid percent-encoded path segment');
          }
        });
      }
      if (ok) {
        out.push({ route: c.route, params });
        // Without conditions the first match is final (nothing after it could be chosen): no further work.
        if (c.route.select === undefined) break;
      }
    }
    return out;
  }
}
