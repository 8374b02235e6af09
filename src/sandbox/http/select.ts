// Choosing among operations that share a method and path by what the request carries (issue 27, rule 36 of
// docs/x-vocabulary.md): AWS's JSON protocols put every operation on POST / and name it in `X-Amz-Target`, its query
// protocols in `?Action=`. A route's `select` says which header or query values (or, without a value, which
// parameters) pick it.
import { invalid } from '../errors.js';

export interface Selector {
  in: 'header' | 'query';
  name: string;
  value?: string;
}

/** The value a request carries in a header (any case) or query parameter, or null. */
export type Carried = (where: 'header' | 'query', name: string) => string | null;

/**
 * Whether the request carries every fixed value of `select`; with `bare`, also every parameter named without a
 * value. Bare names only rank candidates: a request lacking a required parameter still reaches its operation,
 * whose validation names the parameter (400 on it), rather than being told it names no operation.
 */
export function selects(select: readonly Selector[] | undefined, carried: Carried, bare: boolean): boolean {
  for (const s of select ?? []) {
    const value = carried(s.in, s.name);
    if (s.value === undefined ? bare && value === null : value !== s.value) return false;
  }
  return true;
}

/** How many conditions a route's `select` holds: routes of one path are tried most conditions first. */
export const selectWeight = (select: readonly Selector[] | undefined): number => select?.length ?? 0;

/**
 * The 400 for a request that matched a path and method whose every operation needs a fixed value it did not
 * send (a missing or unknown `X-Amz-Target`): names the header or query parameter and the values it takes, as AWS
 * answers an unknown operation, instead of a 404 that would suggest the path is wrong.
 */
export function noOperationSelected(method: string, path: string, candidates: readonly { select?: readonly Selector[] }[], carried: Carried): Error {
  const fixed = candidates.flatMap((c) => c.select ?? []).filter((s) => s.value !== undefined);
  const sameField = (a: Selector, b: Selector): boolean => a.in === b.in && a.name.toLowerCase() === b.name.toLowerCase();
  const valuesOf = (field: Selector): string[] => [...new Set(fixed.filter((s) => sameField(s, field)).map((s) => s.value!))];
  // The field at fault: the first whose value (or absence) no operation takes (`Version` when `Action` is right).
  const first = fixed.find((s) => !valuesOf(s).includes(carried(s.in, s.name) ?? '\u0000')) ?? fixed[0]!;
  const values = valuesOf(first);
  const shown = values.slice(0, 5).join(', ') + (values.length > 5 ? ` (and ${values.length - 5} more)` : '');
  const given = carried(first.in, first.name);
  const where = first.in === 'header' ? 'header' : 'query parameter';
  const problem = given === null ? `is required: it selects the operation of ${method} ${path}` : `"${given.slice(0, 200)}" selects no operation of ${method} ${path}`;
  return invalid(first.name, `the ${where} ${problem}; it takes one of ${shown}`, `No operation of ${method} ${path} is selected by this request.`);
}
