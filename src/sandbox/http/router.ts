// Matches a method and path (below the API's base path) to a route. Literal segments win over parameters,
// segment by segment, so `/personas/voices` is never taken for `/personas/{persona_id}` and
// `/conversations:submit` never for `/conversations/{id}`.
import { invalid } from '../errors.js';

export interface RouteLike {
  method: string;
  path: string;
}

interface Compiled<R> {
  route: R;
  segments: ({ literal: string } | { param: string })[];
}

export interface Match<R> {
  route: R;
  params: Record<string, string>;
}

function compile<R extends RouteLike>(route: R): Compiled<R> {
  const segments = route.path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      const m = /^\{([^{}]+)\}$/.exec(s);
      return m ? { param: m[1]! } : { literal: s };
    });
  return { route, segments };
}

/** Literal-first order: compares segment kinds left to right. */
function specificity<R>(a: Compiled<R>, b: Compiled<R>): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const la = 'literal' in a.segments[i]!;
    const lb = 'literal' in b.segments[i]!;
    if (la !== lb) return la ? -1 : 1;
  }
  return 0;
}

export class Router<R extends RouteLike> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes.map(compile).sort(specificity);
  }

  /** The route for `method path`, or undefined. Percent-decoding failures are 400 on the parameter. */
  match(method: string, path: string): Match<R> | undefined {
    const parts = path.split('/').filter((s) => s !== '');
    for (const c of this.compiled) {
      if (c.route.method !== method || c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = c.segments[i]!;
        if ('literal' in seg) ok = seg.literal === parts[i];
        else {
          try {
            params[seg.param] = decodeURIComponent(parts[i]!);
          } catch {
            throw invalid(seg.param, 'is not a valid percent-encoded path segment');
          }
        }
      }
      if (ok) return { route: c.route, params };
    }
    return undefined;
  }
}
