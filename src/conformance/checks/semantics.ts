// Semantics declared with the spec's x- vocabulary, checked generically: lifecycles (frozen states, hidden
// states), soft delete and its repeat, version history (cosmetic vs tracked saves, revert), normalisation
// and uniqueness, whole-set replacement, per-field null rules, exactly-one-of bodies.
import { takesObjectBody } from '../body-types.js';
import { validValue } from '../values/index.js';
import { expectError, expectStatus, expectSuccess, send } from '../http.js';
import { fail, lacks, skip } from '../result.js';
import type { Route, SuiteData } from '../suite-data.js';
import { bodyProperties, deref, fieldRules, ownParam, recordOf } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { currentRecord, prepare, trackedChange, validBody, versionToRevert } from './happy.js';
import { defsRef } from '../../model/defs-ref.js';

function bodyProps(suite: SuiteData, route: Route): Record<string, unknown> {
  return bodyProperties(suite, route).properties;
}

function listItems(route: Route, body: unknown): Record<string, unknown>[] {
  const shape = route.success.shape;
  const key = shape.kind === 'list' ? shape.items : shape.kind === 'other' ? shape.keys[0] : undefined;
  const items = key === undefined ? undefined : (body as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(items) ? (items as Record<string, unknown>[]) : [];
}

export const frozenLifecycle: Check = {
  name: 'lifecycle: a record in a frozen state cannot be updated or deleted (409)',
  needs: 'an update or delete of a resource with frozen states (x-lifecycle)',
  applies: (route, suite) => (route.action === 'update' || route.action === 'delete') && (suite.resources.find((r) => r.name === route.resource)?.lifecycle?.frozen.length ?? 0) > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const list = ctx.world.route(resource.name, 'list');
    if (!list) lacks('no list operation to find a frozen record with');
    const all = listItems(list, (await send(ctx.target, list, {})).body);
    const frozen = all.find((r) => resource.lifecycle!.frozen.some((c) => JSON.stringify(r[c.field]) === JSON.stringify(c.equals)));
    if (!frozen) skip(`no ${resource.name} in a frozen state to try`);
    const path = { [ownParam(ctx.route)!]: String(frozen[resource.id]) };
    const body = await validBody(ctx.world, ctx.route);
    // docs/sandbox.md "Resources": the DEFAULT workspace "cannot be updated, deleted or archived (409 ALREADY_EXISTS,
    // field workspace_type)": the detail names the field whose value freezes the record.
    const field = resource.lifecycle!.frozen.find((c) => JSON.stringify(frozen[c.field]) === JSON.stringify(c.equals))!.field;
    expectError(await send(ctx.target, ctx.route, { path, ...(body ? { body } : {}) }), 409, 'ALREADY_EXISTS', field);
  },
};

export const softDelete: Check = {
  name: 'soft delete: the answer, then 404 on get, left out of lists, and the documented repeat',
  needs: 'a soft delete (x-soft-delete)',
  applies: (route) => route.action === 'delete' && route.softDelete !== null,
  async run(ctx) {
    const spec = await prepare(ctx);
    const first = await send(ctx.target, ctx.route, spec);
    expectSuccess(first, ctx.route, 'delete');
    const resource = ctx.world.resource(ctx.route.resource!);
    if (ctx.route.softDelete!.respond === 'empty' && ctx.route.success.shape.kind !== 'none' && JSON.stringify(first.body) !== '{}') fail(`expected {} from the delete, got ${first.text.slice(0, 200)}`);
    if (ctx.route.softDelete!.respond === 'resource') {
      const record = recordOf(ctx.route, first);
      const lc = resource.lifecycle;
      if (lc?.field && lc.deleted && record?.[lc.field] !== lc.deleted) fail(`expected ${lc.field} ${lc.deleted} in the answer, got ${JSON.stringify(record?.[lc.field])}`);
    }
    const get = ctx.world.route(resource.name, 'get');
    if (get) expectError(await send(ctx.target, get, { path: spec.path }), 404, 'NOT_FOUND', undefined, 'get after delete');
    const list = ctx.world.route(resource.name, 'list');
    if (list && list.params.path.every((p) => spec.path?.[p.name] !== undefined)) {
      const id = spec.path?.[ownParam(ctx.route)!];
      const items = listItems(list, (await send(ctx.target, list, { path: spec.path })).body);
      if (items.some((r) => r[resource.id] === id)) fail('the deleted record is still listed');
    }
    const again = await send(ctx.target, ctx.route, spec);
    if (ctx.route.softDelete!.repeat === 'ok') expectSuccess(again, ctx.route, 'deleting again');
    else expectError(again, 404, 'NOT_FOUND', undefined, 'deleting again');
  },
};

async function versionCount(ctx: CheckContext, history: Route, path: Record<string, string>): Promise<{ count: number; newest?: { ulid: string; version_number: number; change_type: string } }> {
  const answer = await send(ctx.target, history, { path });
  expectSuccess(answer, history, 'listing versions');
  const items = listItems(history, answer.body) as unknown as { ulid: string; version_number: number; change_type: string }[];
  return { count: items.length, ...(items[0] ? { newest: items[0] } : {}) };
}

export const versionHistory: Check = {
  name: 'versions: a tracked change records a version, a cosmetic or no-op save does not; newest first',
  needs: 'an update of a versioned resource with a history listing',
  applies: (route, suite) => route.action === 'update' && suite.resources.find((r) => r.name === route.resource)?.versioned?.history != null,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const history = ctx.suite.routes.find((r) => r.id === resource.versioned!.history)!;
    const created = await ctx.world.create(resource.name);
    const path = created.path;
    const before = await versionCount(ctx, history, path);
    const props = bodyProps(ctx.suite, ctx.route);
    const cosmetic = Object.keys(props).find((k) => !resource.versioned!.tracked.includes(k) && resource.properties.includes(k) && !fieldRules(ctx.suite, ctx.route)[k]?.unique);
    if (cosmetic !== undefined) {
      const value = validValue(props[cosmetic] as never, ctx.world.defs, { seed: ctx.world.nextSeed() });
      if (value !== undefined) {
        expectSuccess(await send(ctx.target, ctx.route, { path, body: { [cosmetic]: value } }), ctx.route, `a cosmetic save of ${cosmetic}`);
        const after = await versionCount(ctx, history, path);
        if (after.count !== before.count) fail(`a cosmetic save of ${cosmetic} recorded a version (${before.count} -> ${after.count})`);
      }
    }
    expectSuccess(await send(ctx.target, ctx.route, { path, body: {} }), ctx.route, 'an empty save');
    if ((await versionCount(ctx, history, path)).count !== before.count) fail('a save with no change recorded a version');
    const change = await trackedChange(ctx.world, ctx.route, resource.versioned!.tracked, await currentRecord(ctx, resource.name, path));
    expectSuccess(await send(ctx.target, ctx.route, { path, body: change }), ctx.route, `a tracked change of ${Object.keys(change)[0]}`);
    const after = await versionCount(ctx, history, path);
    if (after.count !== before.count + 1) fail(`a tracked change of ${Object.keys(change)[0]} gave ${after.count - before.count} new versions, expected 1`);
    if (before.newest && after.newest && after.newest.version_number !== before.newest.version_number + 1) fail('version numbers are not dense');
    const current = (await currentRecord(ctx, resource.name, path)).current_version as { ulid?: string } | undefined;
    if (current && after.newest && current.ulid !== after.newest.ulid) fail('current_version is not the newest version');
  },
};

export const restoreRules: Check = {
  name: 'restore: a deleted record comes back unchanged (history included); restoring an active one changes nothing',
  needs: 'a restore operation (x-operation: restore)',
  applies: (route) => route.action === 'restore',
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const del = ctx.world.route(resource.name, 'delete');
    const get = ctx.world.route(resource.name, 'get');
    if (!del || !get) lacks(`${resource.name} has no delete or get operation`);
    const created = await ctx.world.create(resource.name);
    const before = await currentRecord(ctx, resource.name, created.path);
    const active = await send(ctx.target, ctx.route, { path: created.path });
    expectSuccess(active, ctx.route, 'restoring an active record');
    if (ctx.route.restore?.noopWhenActive && JSON.stringify(recordOf(ctx.route, active)) !== JSON.stringify(before)) fail('restoring an active record changed it');
    expectSuccess(await send(ctx.target, del, { path: created.path }), del, 'deleting');
    expectError(await send(ctx.target, get, { path: created.path }), 404, 'NOT_FOUND', undefined, 'get after delete');
    expectSuccess(await send(ctx.target, ctx.route, { path: created.path }), ctx.route, 'restoring the deleted record');
    const after = await currentRecord(ctx, resource.name, created.path);
    if (JSON.stringify(after.current_version) !== JSON.stringify(before.current_version)) fail('the restored record has another current_version');
    if (resource.versioned?.history) {
      const history = ctx.suite.routes.find((r) => r.id === resource.versioned!.history)!;
      if ((await versionCount(ctx, history, created.path)).count !== 1) fail('restoring changed the version history');
    }
  },
};

export const revertRules: Check = {
  name: 'versions: revert re-applies a version as a new revert version; reverting to the current one is 400',
  needs: 'a revert operation (x-operation: revert)',
  applies: (route) => route.action === 'revert',
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const created = await ctx.world.create(resource.name);
    const versionParam = ctx.route.params.path.find((p) => p.name !== ownParam(ctx.route))!.name;
    const oldest = await versionToRevert(ctx, created.path);
    const reverted = await send(ctx.target, ctx.route, { path: { ...created.path, [versionParam]: oldest } });
    expectSuccess(reverted, ctx.route, 'revert to the first version');
    const record = recordOf(ctx.route, reverted);
    const current = record?.current_version as { ulid: string; change_type: string; version_number: number } | undefined;
    if (!current || current.change_type !== 'revert') fail(`expected current_version.change_type revert, got ${JSON.stringify(current)}`);
    if (current.version_number !== 3) fail(`expected a third version after save, save, revert; got ${current.version_number}`);
    expectError(await send(ctx.target, ctx.route, { path: { ...created.path, [versionParam]: current.ulid } }), 400, 'INVALID_ARGUMENT', undefined, 'revert to the current version');
  },
};

function fieldsWith(route: Route, suite: SuiteData, pick: (rule: Record<string, unknown>) => boolean): string[] {
  const props = bodyProps(suite, route);
  const rules = fieldRules(suite, route) as Record<string, Record<string, unknown>>;
  return Object.keys(rules).filter((k) => k in props && pick(rules[k]!));
}

export const normalization: Check = {
  name: 'values: lower-case normalisation on write',
  needs: 'a create body field normalised to lower case (x-normalize)',
  applies: (route, suite) => route.action === 'create' && fieldsWith(route, suite, (r) => r.normalize === 'lowercase').length > 0,
  async run(ctx) {
    for (const field of fieldsWith(ctx.route, ctx.suite, (r) => r.normalize === 'lowercase')) {
      const body = await validBody(ctx.world, ctx.route);
      const value = `Mixed-Case-${ctx.world.nextSeed()}`;
      const answer = await send(ctx.target, ctx.route, { ...(await prepare(ctx)), body: { ...body, [field]: value } });
      expectSuccess(answer, ctx.route);
      const stored = recordOf(ctx.route, answer)?.[field];
      if (stored !== value.toLowerCase()) fail(`${field} ${value} was stored as ${JSON.stringify(stored)}`);
    }
  },
};

export const uniqueness: Check = {
  name: 'values: a value held by another active record is 409 on the field; a deleted record frees it',
  needs: 'a create or update body with a unique field (x-unique)',
  applies: (route, suite) => (route.action === 'create' || route.action === 'update') && fieldsWith(route, suite, (r) => r.unique !== undefined).length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    for (const field of fieldsWith(ctx.route, ctx.suite, (r) => r.unique !== undefined)) {
      const value = `unique-${ctx.world.nextSeed()}-${field}`.slice(0, 60);
      const holder = await ctx.world.create(resource.name, { [field]: value });
      const clash = ctx.route.action === 'create' ? await send(ctx.target, ctx.route, { ...(await prepare(ctx)), body: { ...(await validBody(ctx.world, ctx.route)), [field]: value.toUpperCase() === value ? value : value } }) : await send(ctx.target, ctx.route, { path: (await ctx.world.create(resource.name)).path, body: { [field]: value } });
      expectError(clash, 409, 'ALREADY_EXISTS', field, `a second record with ${field} ${value}`);
      const del = ctx.world.route(resource.name, 'delete');
      const rule = fieldRules(ctx.suite, ctx.route)[field]?.unique;
      if (del && rule?.among === 'active') {
        expectStatus(await send(ctx.target, del, { path: holder.path }), (s) => s < 300, 'deleting the holder');
        const again = ctx.route.action === 'create' ? await send(ctx.target, ctx.route, { ...(await prepare(ctx)), body: { ...(await validBody(ctx.world, ctx.route)), [field]: value } }) : await send(ctx.target, ctx.route, { path: (await ctx.world.create(resource.name)).path, body: { [field]: value } });
        expectSuccess(again, ctx.route, `${field} ${value} after its holder was deleted`);
      }
    }
  },
};

export const wholeSet: Check = {
  name: 'values: a given list replaces the whole set (new item ids, old items gone)',
  needs: 'an update body field replaced as a whole set (x-replace)',
  applies: (route, suite) => route.action === 'update' && fieldsWith(route, suite, (r) => r.replace === 'whole-set').length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    for (const field of fieldsWith(ctx.route, ctx.suite, (r) => r.replace === 'whole-set')) {
      const created = await ctx.world.create(resource.name);
      const schema = bodyProps(ctx.suite, ctx.route)[field];
      const list = validValue(schema as never, ctx.world.defs, { seed: ctx.world.nextSeed(), maximal: true }) as unknown[];
      if (!Array.isArray(list) || list.length === 0) lacks(`cannot build a non-empty ${field}`);
      const twice = [...list, ...list].slice(0, Math.max(2, list.length));
      const first = recordOf(ctx.route, await send(ctx.target, ctx.route, { path: created.path, body: { [field]: twice } }))?.[field] as Record<string, unknown>[] | undefined;
      const second = recordOf(ctx.route, await send(ctx.target, ctx.route, { path: created.path, body: { [field]: list } }))?.[field] as Record<string, unknown>[] | undefined;
      if (!Array.isArray(first) || !Array.isArray(second)) fail(`${field} missing from the update answers`);
      if (second.length !== list.length) fail(`${field}: expected exactly the ${list.length} given items, got ${second.length}`);
      const idOf = (item: Record<string, unknown>): unknown => item.ulid ?? item.id;
      const firstIds = new Set<unknown>(first.map(idOf).filter((x) => x !== undefined));
      if (second.some((item) => firstIds.has(idOf(item)))) fail(`${field}: an item kept its id across a replacement`);
      const stored = (await currentRecord(ctx, resource.name, created.path))[field] as unknown[] | undefined;
      if (Array.isArray(stored) && stored.length !== list.length) fail(`${field}: the stored set has ${stored.length} items, expected ${list.length}`);
    }
  },
};

export const nullRules: Check = {
  name: 'values: per-field null rules (null clears, or is ignored)',
  needs: 'an update body field with a null rule (x-null)',
  applies: (route, suite) => route.action === 'update' && fieldsWith(route, suite, (r) => r.null === 'clear' || r.null === 'ignore').length > 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const created = await ctx.world.create(resource.name);
    const props = bodyProps(ctx.suite, ctx.route);
    const problems: string[] = [];
    for (const field of fieldsWith(ctx.route, ctx.suite, (r) => r.null === 'clear' || r.null === 'ignore')) {
      const rule = fieldRules(ctx.suite, ctx.route)[field]?.null;
      const value = validValue(props[field] as never, ctx.world.defs, { seed: ctx.world.nextSeed(), maximal: true });
      if (value === undefined || value === null) continue;
      const set = await send(ctx.target, ctx.route, { path: created.path, body: { [field]: value } });
      if (set.status >= 300) continue; // a value another rule refuses alone (e.g. a voice without its language): not this check's concern
      const cleared = await send(ctx.target, ctx.route, { path: created.path, body: { [field]: null } });
      if (cleared.status >= 300) {
        problems.push(`${field}: null answered ${cleared.status}`);
        continue;
      }
      const after = recordOf(ctx.route, cleared)?.[field];
      const before = recordOf(ctx.route, set)?.[field];
      if (rule === 'clear' && after !== undefined && after !== null && JSON.stringify(after) === JSON.stringify(before) && JSON.stringify(before) !== 'null') problems.push(`${field}: null should clear, the value stayed ${JSON.stringify(after).slice(0, 60)}`);
      if (rule === 'ignore' && JSON.stringify(after) !== JSON.stringify(before)) problems.push(`${field}: null should be ignored, the value changed to ${JSON.stringify(after)}`);
    }
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const exactlyOneOf: Check = {
  name: 'values: exactly one of the listed fields (both or neither is 400; a second attach is 409)',
  needs: 'a body with an exactly-one-of group (x-exactly-one-of)',
  applies: (route) => (route.body?.exactlyOneOf ?? []).length > 1,
  async run(ctx) {
    const spec = await prepare(ctx);
    const one = ctx.route.body!.exactlyOneOf;
    const props = bodyProps(ctx.suite, ctx.route);
    const both: Record<string, unknown> = { ...(spec.body as Record<string, unknown>) };
    for (const k of one) both[k] = validValue(props[k] as never, ctx.world.defs, { seed: 5 });
    // Seed "Errors": "detail field names the offender": every field given (both), every field expected (neither).
    const bothAnswer = await send(ctx.target, ctx.route, { ...spec, body: both });
    for (const k of one) expectError(bothAnswer, 400, 'INVALID_ARGUMENT', k, `both fields (detail on ${k})`);
    const neither: Record<string, unknown> = { ...(spec.body as Record<string, unknown>) };
    for (const k of one) delete neither[k];
    const neitherAnswer = await send(ctx.target, ctx.route, { ...spec, body: neither });
    for (const k of one) expectError(neitherAnswer, 400, 'INVALID_ARGUMENT', k, `neither field (detail on ${k})`);
    expectSuccess(await send(ctx.target, ctx.route, spec), ctx.route, 'exactly one field');
    if (ctx.route.errors.includes(409)) expectError(await send(ctx.target, ctx.route, spec), 409, 'ALREADY_EXISTS', undefined, 'the same request again');
  },
};

/**
 * `got` holds everything of `sent`: equal scalars; objects with at least the sent keys (except writeOnly ones,
 * which are never answered); arrays item by item. `schema` is the response schema at this place.
 */
function contains(got: unknown, sent: unknown, schema: Record<string, unknown>, defs: Record<string, unknown>): boolean {
  if (Array.isArray(sent)) {
    const items = deref(schema.items, defs);
    return Array.isArray(got) && got.length === sent.length && sent.every((item, i) => contains(got[i], item, items, defs));
  }
  if (sent !== null && typeof sent === 'object') {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) return false;
    const props = (schema.properties as Record<string, unknown> | undefined) ?? {};
    return Object.entries(sent).every(([k, v]) => {
      const sub = deref(props[k], defs);
      return sub.writeOnly === true || contains((got as Record<string, unknown>)[k], v, sub, defs);
    });
  }
  return JSON.stringify(got) === JSON.stringify(sent);
}

function fieldSchema(ctx: CheckContext, resourceSchema: string, field: string): Record<string, unknown> {
  return deref((deref({ $ref: defsRef(resourceSchema) }, ctx.suite.defs).properties as Record<string, unknown> | undefined)?.[field], ctx.suite.defs);
}

/** Whether a value sent for `field` can come back as sent: the response schema's enum (if any) must hold it. */
function echoable(ctx: CheckContext, resourceSchema: string, field: string, value: unknown): boolean {
  const schema = deref((deref({ $ref: defsRef(resourceSchema) }, ctx.suite.defs).properties as Record<string, unknown> | undefined)?.[field], ctx.suite.defs);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return false;
  return true;
}

export const echo: Check = {
  name: 'values: what a create or update stores is what it answers, and what a later get shows',
  needs: 'a create or update operation with a body',
  applies: (route) => (route.action === 'create' || route.action === 'update') && takesObjectBody(route) && (route.body.exactlyOneOf ?? []).length === 0,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const rules = fieldRules(ctx.suite, ctx.route);
    const spec = await prepare(ctx);
    const body = (await ctx.world.bodyFor(ctx.route, {}, true)) ?? {};
    const answer = await send(ctx.target, ctx.route, { ...spec, body });
    expectSuccess(answer, ctx.route);
    const record = recordOf(ctx.route, answer);
    if (!record) lacks('the answer does not carry the resource');
    const id = record[resource.id];
    const get = ctx.world.route(resource.name, 'get');
    const path = ctx.route.action === 'create' ? { ...spec.path, [ownParam(get ?? ctx.route) ?? '']: String(id) } : (spec.path ?? {});
    const shown = get ? recordOf(get, await send(ctx.target, get, { path })) : undefined;
    const problems: string[] = [];
    const sentSchemas = bodyProps(ctx.suite, ctx.route);
    for (const [field, sent] of Object.entries(body)) {
      if (sent === null || !resource.properties.includes(field) || rules[field]?.null === 'rule' || rules[field]?.replace) continue;
      if (!echoable(ctx, resource.schema, field, sent)) continue;
      // A structured input the resource holds in another form (a run launch's metadata object, whose customer map
      // is the run's metadata): the body declares properties the resource's field does not.
      if (deref(sentSchemas[field], ctx.suite.defs).properties !== undefined && fieldSchema(ctx, resource.schema, field).properties === undefined) continue;
      // A number the record holds as text (BodyRow.asText: discord's `permissions`) is answered as that text.
      const asText = typeof sent === 'number' && (ctx.route.body?.asText ?? []).includes(field);
      const expected = rules[field]?.normalize === 'lowercase' && typeof sent === 'string' ? sent.toLowerCase() : asText ? String(sent) : sent;
      for (const [where, got] of [['answer', record[field]], ['get', shown?.[field]]] as const) {
        if (where === 'get' && !shown) continue;
        // An answer may leave an optional field out (a transcript on submit); the get must show it then.
        if (where === 'answer' && got === undefined && shown?.[field] !== undefined) continue;
        if (!contains(got, expected, fieldSchema(ctx, resource.schema, field), ctx.suite.defs)) problems.push(`${field}: sent ${JSON.stringify(expected).slice(0, 60)}, ${where} shows ${JSON.stringify(got)?.slice(0, 60)}`);
      }
    }
    if (problems.length > 0) fail(problems.slice(0, 5).join('; '));
  },
};

export const transition: Check = {
  name: 'lifecycle: a state-changing action sets its declared fields, is idempotent, and is refused in a frozen state',
  needs: 'a state-changing action (x-operation custom with x-sets)',
  applies: (route) => route.action === 'custom' && route.sets !== null,
  async run(ctx) {
    const resource = ctx.world.resource(ctx.route.resource!);
    const created = await ctx.world.create(resource.name);
    const sets = ctx.route.sets!;
    const answered: (Record<string, unknown> | undefined)[] = [];
    for (const attempt of ['first', 'repeated']) {
      // Apart in time, so that a repeated call that touched the record would show a later update time.
      if (attempt === 'repeated') await new Promise((r) => setTimeout(r, 5));
      const answer = await send(ctx.target, ctx.route, { path: created.path });
      expectSuccess(answer, ctx.route, `the ${attempt} call`);
      const record = recordOf(ctx.route, answer);
      answered.push(record);
      for (const [k, v] of Object.entries(sets)) if (JSON.stringify(record?.[k]) !== JSON.stringify(v)) fail(`the ${attempt} call answered ${k} ${JSON.stringify(record?.[k])}, expected ${JSON.stringify(v)}`);
    }
    // docs/sandbox.md "Resources": archive "is idempotent": the repeated call leaves the record as the first left it.
    if (JSON.stringify(answered[1]) !== JSON.stringify(answered[0])) fail(`the repeated call changed the record: ${JSON.stringify(answered[0])} -> ${JSON.stringify(answered[1])}`);
    const shown = await currentRecord(ctx, resource.name, created.path);
    for (const [k, v] of Object.entries(sets)) if (JSON.stringify(shown[k]) !== JSON.stringify(v)) fail(`a get afterwards shows ${k} ${JSON.stringify(shown[k])}, expected ${JSON.stringify(v)}`);
    if ((resource.lifecycle?.frozen.length ?? 0) > 0) {
      const list = ctx.world.route(resource.name, 'list');
      const all = list ? listItems(list, (await send(ctx.target, list, {})).body) : [];
      const frozen = all.find((r) => resource.lifecycle!.frozen.some((c) => JSON.stringify(r[c.field]) === JSON.stringify(c.equals)));
      if (frozen) expectError(await send(ctx.target, ctx.route, { path: { [ownParam(ctx.route)!]: String(frozen[resource.id]) } }), 409, 'ALREADY_EXISTS', undefined, 'on a frozen record');
    }
  },
};
