// The call options of an operation that shares its method and path with others (issue 27, rule 36: AWS's
// `/#X-Amz-Target=Svc.CreateX`): the function adds the fixed header and query values that select it to the
// caller's options, so a caller never passes them. Done in the operation's own function rather than in the shared
// runtime, so an API without such operations gets exactly the client it got before.
import { jsString, propertyKey } from '../../encode/index.js';
import type { Operation } from '../../model/ir.js';

/**
 * The expression passed as the call's `options`: `options` itself, or a copy with the fixed values merged over the
 * caller's (the selecting value wins: another one would reach another operation). Query values go as undeclared
 * query keys (the runtime sends those as `name=value`), headers as extra headers (set after the declared ones).
 */
export function selectedOptions(op: Operation): string {
  const fixed = (op.discriminators ?? []).filter((d) => d.value !== undefined);
  if (fixed.length === 0) return 'options';
  const entries = (where: 'header' | 'query'): string =>
    fixed
      .filter((d) => d.in === where)
      .map((d) => `${propertyKey(d.name)}: ${jsString(d.value!)}`)
      .join(', ');
  const parts = ['...options'];
  if (fixed.some((d) => d.in === 'query')) parts.push(`query: { ...(options?.query as object | undefined), ${entries('query')} } as never`);
  if (fixed.some((d) => d.in === 'header')) parts.push(`extraHeaders: { ...options?.extraHeaders, ${entries('header')} }`);
  return `options: { ${parts.join(', ')} }`;
}
