// The generic duplicate action (x-operation action duplicate, docs/x-vocabulary.md): the copy is a new record
// with the source's configuration (every property the schema does not mark readOnly), the `renames` fields
// marked ` (copy)`, and, for a versioned resource, its own version 1; the source is unchanged; an id that
// names nothing is 404. The `resets` fields are the copy's own; the `copies-with` fields are copied only when the
// request body's flag is true.
import { expectError, expectSuccess, send } from '../http.js';
import { fail, lacks } from '../result.js';
import { ownParam, recordOf, referenceName } from '../world.js';
import type { Check } from './context.js';
import { currentRecord } from './happy.js';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export const duplicateCopies: Check = {
  name: 'duplicate: a new record with the configuration, renamed fields marked " (copy)", its own first version; the source unchanged',
  needs: 'a duplicate operation (x-operation: duplicate)',
  applies: (route) => route.action === 'duplicate' && route.auth.length > 0 && route.aliasOf === null,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const source = await ctx.world.create(resource.name);
    const before = await currentRecord(ctx, resource.name, source.path);
    const answer = await send(ctx.target, ctx.route, { path: source.path });
    expectSuccess(answer, ctx.route, 'duplicating');
    const copy = recordOf(ctx.route, answer) ?? fail('the duplicate answered no record');
    if (copy[resource.id] === before[resource.id]) fail(`the copy has the source's ${resource.id}`);
    const renamed = new Set([...(ctx.route.renames ?? []).map((r) => r.field), ...(ctx.route.resets ?? []), ...(ctx.route.copiesWith ?? []).flatMap((c) => c.fields)]);
    for (const r of ctx.route.renames ?? []) {
      if (typeof before[r.field] === 'string' && !String(copy[r.field]).includes('(copy')) fail(`the copy's ${r.field} ${JSON.stringify(copy[r.field])} is not marked as a copy`);
    }
    // Configuration: what the source shows and the copy must show too (server fields and lists the API derives
    // from other records, such as a test set's test-case grid, have their own ids).
    const configuration = resource.properties.filter((p) => p !== resource.id && !renamed.has(p) && !resource.readOnly.includes(p) && !Array.isArray(before[p]) && before[p] !== undefined);
    const differing = configuration.filter((p) => !same(copy[p], before[p]));
    if (differing.length > 0) fail(`the copy differs from the source in ${differing.map((p) => `${p} (${JSON.stringify(copy[p])}, source ${JSON.stringify(before[p])})`).join('; ')}`);
    // The copy's current version (x-field-role current-version) is its own first: its reference's version-number is 1.
    const current = resource.roles.currentVersion;
    const number = resource.versioned?.referenceRoles.versionNumber ?? null;
    if (current !== null && number !== null) {
      const version = copy[current] as Record<string, unknown> | undefined;
      if (version?.[number] !== 1) fail(`the copy's ${current} is ${JSON.stringify(copy[current])}, expected its own version 1`);
    }
    const after = await currentRecord(ctx, resource.name, source.path);
    if (!same(after, before)) fail('duplicating changed the source');
    const param = ownParam(ctx.route)!;
    const unknown = await send(ctx.target, ctx.route, { path: { ...source.path, [param]: `${'Z'.repeat(String(source.id).length)}` } });
    expectError(unknown, 404, 'NOT_FOUND', undefined, 'duplicating an id that names nothing');
  },
};

// docs/sandbox.md "Duplicate": a renames field gets " (copy)" appended, the original cut to fit the field's
// maxLength: a source whose value is as long as the field allows still gives a valid copy, marked as one.
export const duplicateFitsMaxLength: Check = {
  name: 'duplicate: a renamed field at its maxLength is cut so that the copy\'s value with " (copy)" still fits',
  needs: 'a duplicate operation renaming a field with a maxLength',
  applies: (route) => route.action === 'duplicate' && route.auth.length > 0 && route.aliasOf === null && (route.renames ?? []).some((r) => r.maxLength !== null && r.maxLength > ' (copy)'.length),
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const create = ctx.world.route(resource.name, 'create') ?? fail(`${resource.name} has no create operation to make a long-named source with`);
    let tested = 0;
    for (const { field, maxLength } of ctx.route.renames ?? []) {
      if (maxLength === null || maxLength <= ' (copy)'.length) continue;
      const long = 'a'.repeat(maxLength);
      const body = await ctx.world.bodyFor(create, { [field]: long });
      if (body === undefined || create.validators.body?.validate(body).ok === false) continue;
      const source = await ctx.world.create(resource.name, { [field]: long });
      const answer = await send(ctx.target, ctx.route, { path: source.path });
      expectSuccess(answer, ctx.route, `duplicating a ${resource.name} whose ${field} is ${maxLength} characters long`);
      const copy = recordOf(ctx.route, answer) ?? fail('the duplicate answered no record');
      const want = `${long.slice(0, maxLength - ' (copy)'.length)} (copy)`;
      if (copy[field] !== want) fail(`the copy's ${field} is ${JSON.stringify(copy[field])}, expected the source's cut to ${maxLength - ' (copy)'.length} characters and " (copy)"`);
      tested++;
    }
    if (tested === 0) lacks(`no renamed field of ${resource.name} takes a value of its maxLength in a create`);
  },
};

/** A value for a list field of ids: an existing record of the resource its name says, else a made-up name. */
async function idsFor(ctx: Parameters<Check['run']>[0], field: string): Promise<string[]> {
  const name = referenceName(field);
  const resource = ctx.world.suite.resources.find((r) => r.name.replace(/-/g, '_') === name);
  if (resource && resource.name !== ctx.route.resource && ctx.world.canCreate(resource.name)) return [(await ctx.world.ensure(resource.name)).id];
  return [`copied-${ctx.world.nextSeed()}`];
}

export const duplicateCopiesWith: Check = {
  name: 'duplicate: resets fields are the copy\'s own; copies-with fields are copied only when the body\'s flag is true',
  needs: 'a duplicate operation with resets or copies-with fields',
  applies: (route) => route.action === 'duplicate' && route.auth.length > 0 && route.aliasOf === null && ((route.resets ?? []).length > 0 || (route.copiesWith ?? []).length > 0),
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const source = await ctx.world.create(resource.name);
    const update = ctx.world.route(resource.name, 'update') ?? fail(`the ${resource.name} has no update operation to give the source the copied-on-request fields`);
    const values: Record<string, string[]> = {};
    for (const { fields } of ctx.route.copiesWith ?? []) for (const f of fields) values[f] = await idsFor(ctx, f);
    if (Object.keys(values).length > 0) expectSuccess(await send(ctx.target, update, { path: source.path, body: values }), update, 'giving the source the copied-on-request fields');
    const before = await currentRecord(ctx, resource.name, source.path);
    const plain = recordOf(ctx.route, await send(ctx.target, ctx.route, { path: source.path, body: {} })) ?? fail('the duplicate answered no record');
    for (const f of ctx.route.resets ?? []) {
      if (before[f] !== undefined && same(plain[f], before[f])) fail(`the copy's ${f} is the source's ${JSON.stringify(before[f])}, expected its own`);
    }
    for (const { flag, fields } of ctx.route.copiesWith ?? []) {
      for (const f of fields) if (same(plain[f], before[f])) fail(`without ${flag} the copy has the source's ${f} ${JSON.stringify(before[f])}`);
      const answer = await send(ctx.target, ctx.route, { path: source.path, body: { [flag]: true } });
      expectSuccess(answer, ctx.route, `duplicating with ${flag}`);
      const full = recordOf(ctx.route, answer) ?? fail('the duplicate answered no record');
      for (const f of fields) if (!same(full[f], before[f])) fail(`with ${flag} the copy's ${f} is ${JSON.stringify(full[f])}, expected the source's ${JSON.stringify(before[f])}`);
    }
  },
};

export const checks: Check[] = [duplicateCopies, duplicateFitsMaxLength, duplicateCopiesWith];
