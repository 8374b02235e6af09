// The generic duplicate action (x-operation action duplicate, docs/x-vocabulary.md): the copy is a new record
// with the source's configuration (every property the schema does not mark readOnly), the `renames` fields
// marked ` (copy)`, and, for a versioned resource, its own version 1; the source is unchanged; an id that
// names nothing is 404.
import { expectError, expectSuccess, send } from '../http.js';
import { fail } from '../result.js';
import { ownParam, recordOf } from '../world.js';
import type { Check } from './context.js';
import { currentRecord } from './happy.js';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export const duplicateCopies: Check = {
  name: 'duplicate: a new record with the configuration, renamed fields marked " (copy)", its own first version; the source unchanged',
  applies: (route) => route.action === 'duplicate' && route.auth.length > 0 && route.aliasOf === null,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const source = await ctx.world.create(resource.name);
    const before = await currentRecord(ctx, resource.name, source.path);
    const answer = await send(ctx.target, ctx.route, { path: source.path });
    expectSuccess(answer, ctx.route, 'duplicating');
    const copy = recordOf(ctx.route, answer) ?? fail('the duplicate answered no record');
    if (copy[resource.id] === before[resource.id]) fail(`the copy has the source's ${resource.id}`);
    const renamed = new Set((ctx.route.renames ?? []).map((r) => r.field));
    for (const r of ctx.route.renames ?? []) {
      if (typeof before[r.field] === 'string' && !String(copy[r.field]).includes('(copy')) fail(`the copy's ${r.field} ${JSON.stringify(copy[r.field])} is not marked as a copy`);
    }
    // Configuration: what the source shows and the copy must show too (server fields and lists the API derives
    // from other records, such as a test set's test-case grid, have their own ids).
    const configuration = resource.properties.filter((p) => p !== resource.id && !renamed.has(p) && !resource.readOnly.includes(p) && !Array.isArray(before[p]) && before[p] !== undefined);
    const differing = configuration.filter((p) => !same(copy[p], before[p]));
    if (differing.length > 0) fail(`the copy differs from the source in ${differing.map((p) => `${p} (${JSON.stringify(copy[p])}, source ${JSON.stringify(before[p])})`).join('; ')}`);
    if (resource.versioned) {
      const version = copy.current_version as { version_number?: number } | undefined;
      if (version?.version_number !== 1) fail(`the copy's current_version is ${JSON.stringify(copy.current_version)}, expected its own version 1`);
    }
    const after = await currentRecord(ctx, resource.name, source.path);
    if (!same(after, before)) fail('duplicating changed the source');
    const param = ownParam(ctx.route)!;
    const unknown = await send(ctx.target, ctx.route, { path: { ...source.path, [param]: `${'Z'.repeat(String(source.id).length)}` } });
    expectError(unknown, 404, 'NOT_FOUND', undefined, 'duplicating an id that names nothing');
  },
};

export const checks: Check[] = [duplicateCopies];
