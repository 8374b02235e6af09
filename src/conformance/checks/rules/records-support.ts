// Helpers of the record-rule checks (records-*.ts): which operation a check belongs to, reading a resource
// and its version history through the API, and ids that name nothing.
import { expectSuccess, send, type Answer, type RequestSpec } from '../../http.js';
import { fail, skip } from '../../result.js';
import type { Route, SuiteData } from '../../suite-data.js';
import type { ControlAccess } from '../../target.js';
import { deref, recordOf } from '../../world.js';
import type { CheckContext } from '../context.js';

export type Json = Record<string, unknown>;

export interface VersionRef {
  ulid: string;
  version_number: number;
  change_type: string;
}

/** `applies` of a check that exercises the operation `resource`/`action` when the spec names `rule` on it. */
export function operationWithRule(resource: string, action: string, rule: string): (route: Route, suite: SuiteData) => boolean {
  return (route) => route.resource === resource && route.action === action && route.aliasOf === null && route.rules.includes(rule);
}

/** The first canonical (not deprecated-alias) operation naming `rule` in x-rules that `where` accepts. */
export function ruleRoute(suite: SuiteData, rule: string, where: (route: Route) => boolean = () => true): Route | undefined {
  return suite.routes.find((r) => r.rules.includes(rule) && r.aliasOf === null && where(r));
}

/** A check applies to the operation `ruleRoute` finds for `rule` (and `where`). */
export function onRule(rule: string, where?: (route: Route) => boolean): (route: Route, suite: SuiteData) => boolean {
  return (route, suite) => route.id === ruleRoute(suite, rule, where)?.id;
}

/** The operation of a resource, or a failure naming what the spec lacks. */
export function routeOf(ctx: CheckContext, resource: string, action: string): Route {
  const route = ctx.world.route(resource, action);
  if (!route) fail(`the spec has no ${action} operation for ${resource}`);
  return route;
}

export function controlOf(ctx: CheckContext, purpose: string): ControlAccess {
  const control = ctx.target.control;
  if (!control) skip(`needs the control plane to ${purpose}`);
  return control;
}

/** A fixture entry with the control plane's optional placement fields (FixtureRecord in its spec). */
export interface FixtureEntry {
  kind: string;
  data: Json;
  platform?: boolean;
  deleted?: boolean;
  workspace_id?: string | null;
}

/** Loads fixtures; answers their ids in order. */
export async function loadFixtures(control: ControlAccess, entries: FixtureEntry[]): Promise<string[]> {
  const loaded = await control.loadFixtures(entries as Parameters<ControlAccess['loadFixtures']>[0]);
  return loaded.map((l) => l.id);
}

/** An agent as stored before versioning existed: loaded without version history (seed Versioning 3). */
export function legacyAgentFixture(ctx: CheckContext): FixtureEntry {
  const modelType = enumOf(ctx, propertySchema(ctx, 'agent', 'model_type'))[0];
  return { kind: 'agent', data: { display_name: `Legacy agent ${ctx.world.nextSeed()}`, model_type: modelType, customer_agent_id: `legacy-${ctx.world.nextSeed()}` } };
}

/** Sends and expects the documented success (the body validated against the spec). */
export async function succeed(ctx: CheckContext, route: Route, spec: RequestSpec, what: string): Promise<Answer> {
  const answer = await send(ctx.target, route, spec);
  expectSuccess(answer, route, what);
  return answer;
}

/** The resource as its get operation shows it now. */
export async function read(ctx: CheckContext, resource: string, path: Record<string, string>): Promise<Json> {
  const get = routeOf(ctx, resource, 'get');
  const record = recordOf(get, await succeed(ctx, get, { path }, `getting the ${resource}`));
  if (!record) fail(`getting the ${resource}: no ${resource} in the answer`);
  return record;
}

/** The items of a list-like answer: the route's list items, else its first key. */
export function itemsOf(route: Route, body: unknown): Json[] {
  const shape = route.success.shape;
  const key = shape.kind === 'list' ? shape.items : shape.kind === 'other' ? shape.keys[0] : undefined;
  const items = key === undefined ? undefined : (body as Json | undefined)?.[key];
  return Array.isArray(items) ? (items as Json[]) : [];
}

/** The version history of a versioned resource, newest first (seed Versioning: "newest first"). */
export async function versionsOf(ctx: CheckContext, resource: string, path: Record<string, string>): Promise<Json[]> {
  const history = ctx.suite.routes.find((r) => r.id === ctx.world.resource(resource).versioned?.history);
  if (!history) fail(`${resource} has no version history operation`);
  return itemsOf(history, (await succeed(ctx, history, { path }, `listing the versions of the ${resource}`)).body);
}

/** The `enum` of a schema node (after $ref / allOf). */
export function enumOf(ctx: CheckContext, node: unknown): unknown[] {
  const values = deref(node, ctx.suite.defs).enum;
  return Array.isArray(values) ? values : [];
}

/** The schema of a property of a resource's response schema. */
export function propertySchema(ctx: CheckContext, resource: string, property: string): unknown {
  const schema = deref({ $ref: `#/$defs/${ctx.world.resource(resource).schema}` }, ctx.suite.defs);
  return (schema.properties as Json | undefined)?.[property];
}

/** An id of the same form as `id` (same length and alphabet) that names nothing the suite made. */
export function unusedLike(id: string): string {
  const alphabet = /^[0-9A-HJKMNP-TV-Z]+$/.test(id) ? '0123456789ABCDEFGHJKMNPQRSTVWXYZ' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < id.length; i++) out += alphabet[(alphabet.indexOf(id[i]!) + 7 + i) % alphabet.length];
  // A ULID's first character is at most 7 (48-bit time): keep the original one.
  return /^[0-7]/.test(id) && alphabet.length === 32 ? id[0] + out.slice(1) : out;
}

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function show(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 200) ?? 'undefined';
}
