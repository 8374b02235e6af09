// Which resource a path parameter names when the resource is named after its plural collection (issue 27): discord's
// `/guilds/{guild_id}` is the resource `guilds`, and `{guild_id}` in `/guilds/{guild_id}/roles` names it. Ours names
// every resource in the singular and its parameters `<resource>_id`, which the callers try first; this rule is only
// reached for a parameter that matched nothing else, so it never changes what ours resolves. One definition for the
// sandbox (engine/records.ts, parentResource) and the conformance suite (world.ts, resourceForParam).
import { lastTemplate } from './path-template.js';

interface NamedResource {
  name: string;
}

interface RouteLike {
  resource: string | null;
  action: string | null;
  aliasOf: string | null;
  path: string;
}

/** Letters and digits only, lower case: `stage-instances`, `stage_instances` and `StageInstances` compare equal. */
const folded = (name: string): string => name.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/** The plural spellings of a parameter's stem: `guild_id` → guilds; `categoryId` → categories; `boxID` → boxes. */
export function pluralsOfParam(param: string): string[] {
  const stem = param.replace(/(?:_id|Id|ID)$/, '');
  if (stem === param || stem === '') return [];
  const s = folded(stem);
  const out = [`${s}s`, `${s}es`];
  if (/[^aeiou]y$/.test(s)) out.push(`${s.slice(0, -1)}ies`);
  return out;
}

/**
 * The resource a parameter `<singular>_id` (or `<singular>Id`) names by its plural: its name is the stem's plural,
 * its get operation's path ends with the parameter, and it can be created (so a client can make the parent it
 * names). None: undefined.
 */
export function pluralResourceFor<R extends NamedResource>(resources: readonly R[], routes: readonly RouteLike[], param: string): R | undefined {
  const plurals = pluralsOfParam(param);
  if (plurals.length === 0) return undefined;
  const has = (r: R, action: string, test: (path: string) => boolean) => routes.some((route) => route.resource === r.name && route.action === action && route.aliasOf === null && test(route.path));
  const endsWithParam = (path: string): boolean => lastTemplate(path)?.name === param;
  return resources.find((r) => plurals.includes(folded(r.name)) && has(r, 'get', endsWithParam) && has(r, 'create', () => true));
}
