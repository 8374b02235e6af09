// What selects an operation beside its path and method (inference rule 36): the suffix of its path key
// (path-key.ts) read against the operation's declared parameters.
import type { Discriminator, Parameter, ParameterLocation } from './ir.js';
import type { PathKey } from './path-key.js';

/**
 * The discriminators of one operation; fixed-value parameters are taken out of `params` (the client sends them
 * itself, so a caller is never asked for a value only one answer fits, and the suite never sends another one as a
 * "wrong value" of a parameter).
 *
 * - `name=value` naming a declared header or query parameter (AWS declares `X-Amz-Target` and `Action` so, each with a
 *   one-value enum): that parameter fixed to the value, where it is declared.
 * - `name=value` naming nothing declared: a header after `#` (a fragment is never sent, so `#Name=Value` can only mean
 *   a header), a query parameter after `?` (a query string is sent as written).
 * - a bare `name` naming a declared header or query parameter: the request must carry it (S3's `?uploadId`); it stays
 *   a parameter, and routing prefers the operation whose parameters the request carries.
 * - a bare `name` naming nothing declared: a valueless query flag after `?` (S3's `?acl`, sent as `acl=`); after `#`
 *   only a mark that keeps path keys apart (box's `#add_shared_link`), nothing a request carries.
 */
export function discriminatorsOf(key: PathKey, params: Record<ParameterLocation, Parameter[]>): Discriminator[] {
  const out: Discriminator[] = [];
  for (const item of key.items) {
    const declared = findDeclared(params, item.name);
    if (declared !== undefined) {
      if (item.value === undefined) out.push({ in: declared.in, name: declared.param.name });
      else {
        params[declared.in] = params[declared.in].filter((p) => p !== declared.param);
        out.push({ in: declared.in, name: declared.param.name, value: item.value });
      }
    } else if (item.value !== undefined) out.push({ in: key.separator === '?' ? 'query' : 'header', name: item.name, value: item.value });
    else if (key.separator === '?') out.push({ in: 'query', name: item.name, value: '' });
  }
  return out;
}

/** The declared header (any case, as HTTP compares them) or query parameter (exact) of that name. */
function findDeclared(params: Record<ParameterLocation, Parameter[]>, name: string): { in: 'header' | 'query'; param: Parameter } | undefined {
  const header = params.header.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (header !== undefined) return { in: 'header', param: header };
  const query = params.query.find((p) => p.name === name);
  return query === undefined ? undefined : { in: 'query', param: query };
}
