// The resources the suite needs: created through the API's own create operations (with valid bodies built
// from the schemas, and references to other resources filled with ones it creates first), or, for resources
// the API cannot create, loaded through the control plane. Everything created is remembered for clean-up.
import { validValue, type Defs } from './values/index.js';
import { expectSuccess, send, type Answer } from './http.js';
import { fail, skip } from './result.js';
import type { ResourceRow, Route, SuiteData } from './suite-data.js';
import { bodyNeeds, recordNeeds } from './rule-needs.js';
import type { Target } from './target.js';
import { defsRef, defsName } from '../model/defs-ref.js';
import { processFreshValues } from './fresh-values.js';
import { lastTemplate } from '../data/path-template.js';
import { pluralResourceFor } from '../data/param-resource.js';
import type { SchemaNode } from '../model/ir.js';

export interface Created {
  resource: string;
  id: string;
  /** Path values that address it (its parents' ids and its own). */
  path: Record<string, string>;
  record: Record<string, unknown>;
}

/**
 * The path parameter naming a route's own resource: `<resource>_id`; else, under a parent (an inferred nested
 * collection, `/owners/{ownerId}/pets/{petId}`: issue 27), the one that ends the path; else the first. The sandbox's
 * rule is the same (engine/records.ts, firstPathParam).
 */
export function ownParam(route: Route): string | undefined {
  const own = route.resource === null ? undefined : `${route.resource.replace(/-/g, '_')}_id`;
  const named = route.params.path.find((p) => p.name === own);
  if (named) return named.name;
  const ending = lastTemplate(route.path)?.name;
  const last = route.params.path.length > 1 ? route.params.path.find((p) => p.name === ending) : undefined;
  return (last ?? route.params.path[0])?.name;
}

/**
 * The resource a path parameter names: `<resource>_id` (ours), else a resource named by the parameter's plural
 * (`guild_id` → `guilds`, data/param-resource.ts), else, for a parameter not named `..._id`, the creatable
 * resource whose get operation's path ends with it (an inferred resource's item path, `/pet/{petId}`: issue 27).
 */
export function resourceForParam(suite: SuiteData, name: string, route?: Route): ResourceRow | undefined {
  const named = suite.resources.find((r) => `${r.name.replace(/-/g, '_')}_id` === name) ?? pluralResourceFor(suite.resources, suite.routes, name);
  if (named || name.endsWith('_id')) return named;
  const has = (r: ResourceRow, action: string, test: (path: string) => boolean) => suite.routes.some((other) => other.resource === r.name && other.action === action && other.aliasOf === null && test(other.path));
  const candidates = suite.resources.filter((r) => has(r, 'get', (path) => lastTemplate(path)?.name === name) && has(r, 'create', () => true));
  if (route === undefined) return candidates[0];
  // Many resources may end their item paths with the same parameter (twilio's `{Sid}`): on a route's own
  // parameter, it is the route's resource (which may have no get: twilio's message subscriptions are only deleted).
  const ownRoute = route.resource !== null && route.action !== 'create' && route.action !== 'list' && name === ownParam(route);
  const mine = ownRoute ? suite.resources.find((r) => r.name === route.resource && has(r, 'create', () => true)) : undefined;
  if (mine) return mine;
  // Else the resource whose item path is the route's path up to that parameter, whatever the parameters are
  // called (`/Calls/{CallSid}/Notifications` under `/Calls/{Sid}.json`); a name only one resource ends with.
  const through = prefixThrough(route.path, name);
  const placed = through === undefined ? undefined : suite.resources.find((r) => has(r, 'create', () => true) && has(r, 'get', (path) => sameItemPath(path, through)));
  return placed ?? (candidates.length === 1 ? candidates[0] : undefined);
}

/** `path` up to and including the template `{name}`, else undefined. */
function prefixThrough(path: string, name: string): string | undefined {
  const at = path.indexOf(`{${name}}`);
  return at < 0 ? undefined : path.slice(0, at + name.length + 2);
}

/** Whether an item path is `prefix` with other parameter names, and at most a suffix in its last segment (`.json`). */
function sameItemPath(path: string, prefix: string): boolean {
  const anonymous = (p: string): string => p.replace(/\{[^}]*\}/g, '{}');
  const a = anonymous(path);
  const b = anonymous(prefix);
  return a === b || (a.startsWith(b) && !a.slice(b.length).includes('/'));
}

/** The resource record inside a success answer, per the route's response shape. */
export function recordOf(route: Route, answer: Answer): Record<string, unknown> | undefined {
  const shape = route.success.shape;
  const body = answer.body as Record<string, unknown> | undefined;
  if (!body) return undefined;
  if (shape.kind === 'resource') return body;
  if (shape.kind === 'wrapped') return body[shape.key] as Record<string, unknown> | undefined;
  return undefined;
}

// Unique values must not repeat across suite runs against one deployment, nor across Worlds in one process.
const RUN_TOKEN = (Date.now() % 1_679_616).toString(36);
let uniqueCounter = 0;

/** Field rules of the route's resource and of its body, merged per field (the body's win). */
export function fieldRules(suite: SuiteData, route: Route): Record<string, { unique?: { among?: string }; normalize?: string; replace?: string; null?: string; references?: string }> {
  const resource = suite.resources.find((r) => r.name === route.resource);
  const out: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(resource?.fields ?? {})) out[k] = { ...v };
  for (const [k, v] of Object.entries(route.body?.fields ?? {})) out[k] = { ...out[k], ...v };
  return out as ReturnType<typeof fieldRules>;
}

/**
 * A schema with `$ref`s and single-element `allOf`s followed; keywords beside them (a `maxLength` next to a
 * `$ref`, a `readOnly` next to an `allOf`) are kept and win.
 */
export function deref(node: unknown, defs: Record<string, unknown>): Record<string, unknown> {
  let current = node as Record<string, unknown> | undefined;
  for (let i = 0; i < 10 && current; i++) {
    const { $ref, allOf, ...siblings } = current;
    if (typeof $ref === 'string') current = { ...(defs[defsName($ref) ?? ''] as Record<string, unknown>), ...siblings };
    else if (Array.isArray(allOf) && allOf.length === 1) current = { ...(allOf[0] as Record<string, unknown>), ...siblings };
    else break;
  }
  return current ?? {};
}

/** The top-level properties of a route's JSON body schema. */
export function bodyProperties(suite: SuiteData, route: Route): { properties: Record<string, unknown>; required: string[] } {
  const schema = deref(suite.schemas[route.id]?.body ?? {}, suite.defs);
  const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
  const required = [...((schema.required as string[] | undefined) ?? [])];
  for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
    const p = deref(part, suite.defs);
    Object.assign(properties, (p.properties as Record<string, unknown> | undefined) ?? {});
    required.push(...((p.required as string[] | undefined) ?? []));
  }
  return { properties, required };
}

/** `agent` for `agent_id` / `agent_ids`; undefined for a field that is not a reference by name. */
export function referenceName(key: string): string | undefined {
  return /^(.*)_ids?$/.exec(key)?.[1];
}

/**
 * The rule of a subscription's create operation (spec/webhooks.yaml): its records make the target call their
 * `url` whenever an event fires, so a subscription left behind costs every later event a delivery (and its
 * retries, when the url leads nowhere).
 */
const SUBSCRIPTION_RULE = 'webhook-url';
/** The rule of a run launch (the sandbox queues the launched run for execution there). */
const LAUNCH_RULE = 'run-pin-versions';

export class World {
  readonly defs: Defs;
  private readonly cache = new Map<string, Created>();
  readonly created: Created[] = [];
  private seed = 1;
  /** The one value each parent parameter that names no resource takes in this run (parentValue). */
  private parentValues = new Map<string, string>();
  /** Whether the running check touched subscriptions (they are removed when it ends). */
  private subscriptionsTouched = false;
  /** Where `created` stood when the running check began. */
  private checkStart = 0;
  /** On a subscription's operation: the ids listed before the running check, by resource. */
  private subscriptionsBefore = new Map<string, Set<string>>();

  constructor(
    readonly target: Target,
    readonly suite: SuiteData,
  ) {
    this.defs = suite.defs as Defs;
  }

  nextSeed(): number {
    return this.seed++;
  }

  resource(name: string): ResourceRow {
    const r = this.suite.resources.find((x) => x.name === name);
    if (!r) fail(`unknown resource ${name}`);
    return r;
  }

  route(resource: string, action: string): Route | undefined {
    return this.suite.routes.find((r) => r.resource === resource && r.action === action && r.aliasOf === null);
  }

  /** A valid body for a route, references to other resources filled with ones that exist. */
  async bodyFor(route: Route, overrides: Record<string, unknown> = {}, maximal = false): Promise<Record<string, unknown> | undefined> {
    const schema = this.suite.schemas[route.id]?.body;
    if (schema === undefined || schema === null) return undefined;
    const value = validValue(schema as never, this.defs, { seed: this.nextSeed(), maximal });
    if (value === undefined) fail(`cannot build a valid body for ${route.id} from its schema`);
    const body = value as Record<string, unknown>;
    await this.fillReferences(body, route);
    this.makeUnique(body, route);
    this.freshClientId(body, route);
    for (const [k, v] of Object.entries({ ...(await bodyNeeds(route, this)), ...overrides })) {
      if (v === undefined) delete body[k];
      else body[k] = v;
    }
    return body;
  }


  /** Fields declared unique (x-unique) get a value no earlier body had, still valid for the body schema. */
  makeUnique(body: Record<string, unknown>, route: Route, except?: string): void {
    const rules = fieldRules(this.suite, route);
    for (const [field, rule] of Object.entries(rules)) {
      if (!rule.unique || typeof body[field] !== 'string' || field === except) continue;
      const base = body[field] as string;
      for (let attempt = 0; attempt < 20; attempt++) {
        const suffix = `${RUN_TOKEN}${++uniqueCounter}`;
        const candidates = [`${base}${suffix}`, `${base.slice(0, Math.max(1, base.length - suffix.length))}${suffix}`, `u${suffix}`];
        const ok = candidates.find((c) => route.validators.body?.validate({ ...body, [field]: c }).ok !== false);
        if (ok !== undefined) {
          body[field] = ok;
          break;
        }
      }
    }
  }

  /**
   * A create body that carries its record's own id (the client chooses it: the id is not readOnly) gets one no earlier body had, valid for
   * the body's schema of that field (fresh-values.ts): the same id sent twice names a taken record.
   */
  freshClientId(body: Record<string, unknown>, route: Route): void {
    if (route.action !== 'create' || route.resource === null) return;
    const row = this.resource(route.resource);
    const id = row.id;
    // A create answered with no content (issue 27) names its record only by an id the client sent: always send one.
    if (body[id] === undefined && route.success.shape.kind !== 'none') return;
    // A readOnly id is the server's to set (a request does not carry it): not a client-supplied one.
    if (row.readOnly.includes(id)) {
      delete body[id];
      return;
    }
    const schema = bodyProperties(this.suite, route).properties[id];
    if (schema === undefined) return;
    const value = processFreshValues.next(schema as SchemaNode, this.defs);
    if (value === undefined) fail(`cannot build a fresh ${id} for ${route.id} from its schema`);
    body[id] = value;
  }

  /**
   * Fields named `<resource>_id` / `<resource>_ids` get ids of resources that exist. Optional references to
   * anything the suite cannot create (a custom voice, a run template) are left out: a made-up id names nothing.
   */
  async fillReferences(body: Record<string, unknown>, route: Route, except?: string): Promise<void> {
    const required = new Set(bodyProperties(this.suite, route).required);
    for (const key of Object.keys(body)) {
      if (key === except) continue;
      const nested = body[key];
      if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) await this.fillNestedReferences(nested as Record<string, unknown>, route);
      // x-references names the resource; otherwise the field's name does (`agent_id`).
      const declared = fieldRules(this.suite, route)[key]?.references;
      const name = declared ?? referenceName(key);
      if (name === undefined) continue;
      const exact = this.suite.resources.find((r) => r.name === declared || r.name.replace(/-/g, '_') === name);
      // A role-prefixed reference (trigger_metric_id, followup_metric_id) names the resource its name ends with;
      // each such field gets its own shared instance, so two roles in one body name different records.
      const prefixed = exact ? undefined : this.suite.resources.find((r) => name.endsWith(`_${r.name.replace(/-/g, '_')}`));
      const resource = exact ?? prefixed;
      if (!resource || resource.name === route.resource || !this.canCreate(resource.name)) {
        if (!required.has(key) && !(resource && resource.name === route.resource)) delete body[key];
        continue;
      }
      const ref = await this.ensure(resource.name, prefixed ? key : undefined);
      body[key] = Array.isArray(body[key]) || key.endsWith('_ids') ? [ref.id] : ref.id;
    }
  }

  /**
   * References by name inside a nested object of a body (a run launch's `options.test_case_ids`) get ids of
   * shared instances, which belong together (the shared test case is one of the shared test set); fields that
   * name nothing the suite can create are left as generated.
   */
  private async fillNestedReferences(body: Record<string, unknown>, route: Route): Promise<void> {
    for (const key of Object.keys(body)) {
      const name = referenceName(key);
      const resource = name === undefined ? undefined : this.suite.resources.find((r) => r.name.replace(/-/g, '_') === name);
      if (!resource || resource.name === route.resource || !this.canCreate(resource.name)) continue;
      const ref = await this.ensure(resource.name);
      body[key] = Array.isArray(body[key]) || key.endsWith('_ids') ? [ref.id] : ref.id;
    }
  }

  /** The path parameter naming a record of the resource (`agent_id`; `project_id` of a review project). */
  idParam(resource: string): string {
    const route = this.route(resource, 'get') ?? this.route(resource, 'delete') ?? this.route(resource, 'update');
    return (route && ownParam(route)) ?? `${resource.replace(/-/g, '_')}_id`;
  }

  /** Whether records of `resource` are subscriptions the target delivers events to (SUBSCRIPTION_RULE). */
  isSubscription(resource: string | null): boolean {
    return resource !== null && this.route(resource, 'create')?.rules.includes(SUBSCRIPTION_RULE) === true;
  }

  /** The resources whose records are subscriptions. */
  private subscriptionResources(): string[] {
    return this.suite.resources.map((r) => r.name).filter((name) => this.isSubscription(name));
  }

  /** Ids of the subscriptions of `resource` the target lists (its list's first page). */
  private async listedIds(resource: string): Promise<string[]> {
    const list = this.route(resource, 'list');
    if (!list || list.success.shape.kind !== 'list' || list.params.path.length > 0) return [];
    const answer = await send(this.target, list, {});
    const items = answer.status < 300 ? (answer.body as Record<string, unknown> | undefined)?.[list.success.shape.items] : undefined;
    const idKey = this.resource(resource).id;
    return Array.isArray(items) ? items.map((item) => (item as Record<string, unknown>)[idKey]).filter((id): id is string => typeof id === 'string') : [];
  }

  /** Called by the runner before each check: on a subscription's operation, what exists before it (not the suite's to remove). */
  async beginCheck(route: Route): Promise<void> {
    this.checkStart = this.created.length;
    this.subscriptionsBefore = new Map();
    this.subscriptionsTouched = this.isSubscription(route.resource);
    if (this.subscriptionsTouched) for (const resource of this.subscriptionResources()) this.subscriptionsBefore.set(resource, new Set(await this.listedIds(resource)));
  }

  /**
   * Called by the runner after each check: subscriptions the suite made do not outlive the check that made or
   * used them. Removed are the ones the World made during the check, the shared ones (forgotten, so the next check
   * that needs one gets a fresh one), and, on a subscription's own operation, every one the target lists now that
   * it did not list before the check (made by the check's own requests). Subscriptions that were there before
   * belong to the organization, not the suite, and stay. Otherwise each later event would be delivered to all of
   * them, and every wait for deliveries (a run completion's, the receiver's) would pay for their attempts and retries.
   */
  async endCheck(): Promise<void> {
    if (!this.subscriptionsTouched) return;
    this.subscriptionsTouched = false;
    for (const resource of this.subscriptionResources()) {
      const remove = this.route(resource, 'delete');
      const ids = new Set(this.created.slice(this.checkStart).filter((c) => c.resource === resource).map((c) => c.id));
      for (const [key, c] of this.cache) {
        if (c.resource !== resource) continue;
        ids.add(c.id);
        this.cache.delete(key);
      }
      const before = this.subscriptionsBefore.get(resource);
      if (before) for (const id of await this.listedIds(resource)) if (!before.has(id)) ids.add(id);
      if (!remove) continue;
      // Best effort, like cleanUp: one the check deleted itself answers 404.
      for (const id of ids) await send(this.target, remove, { path: { [this.idParam(resource)]: id } });
    }
  }

  canCreate(resource: string): boolean {
    return this.route(resource, 'create') !== undefined || this.target.control !== undefined;
  }

  /** One shared instance of a resource (created once), or one per `role` (a field that names it in a role). */
  async ensure(resource: string, role?: string): Promise<Created> {
    const key = role === undefined ? resource : `${resource}:${role}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const created = await this.create(resource);
    this.cache.set(key, created);
    return created;
  }

  /** A fresh instance of a resource. */
  async create(resource: string, overrides: Record<string, unknown> = {}): Promise<Created> {
    const row = this.resource(resource);
    const route = this.route(resource, 'create');
    if (!route) {
      // Not creatable through the API: an existing one from its list (the served specs), else a fixture.
      const list = this.route(resource, 'list');
      // A listed record already handed out as a shared instance is not fresh: a check that deletes or changes its
      // "fresh" record would take it from every later check. With a control plane, a fixture is loaded instead.
      const shared = new Set([...this.cache.values()].filter((c) => c.resource === resource).map((c) => c.id));
      const taken = (item: Record<string, unknown> | undefined): boolean => this.target.control !== undefined && item !== undefined && shared.has(item[row.id] as string);
      if (list && list.params.path.length === 0 && Object.keys(overrides).length === 0) {
        const answer = await send(this.target, list, {});
        const items = list.success.shape.kind === 'list' ? (answer.body as Record<string, unknown> | undefined)?.[list.success.shape.items] : undefined;
        const first = Array.isArray(items) ? (items[0] as Record<string, unknown> | undefined) : undefined;
        if (answer.status < 300 && first && typeof first[row.id] === 'string' && !taken(first)) {
          return { resource, id: first[row.id] as string, path: { [this.idParam(resource)]: first[row.id] as string }, record: first };
        }
        const keyed = list.success.shape.kind === 'other' ? (answer.body as Record<string, unknown> | undefined)?.[list.success.shape.keys[0] ?? ''] : undefined;
        const firstKeyed = Array.isArray(keyed) ? (keyed[0] as Record<string, unknown> | undefined) : undefined;
        if (answer.status < 300 && firstKeyed && typeof firstKeyed[row.id] === 'string' && !taken(firstKeyed)) {
          return { resource, id: firstKeyed[row.id] as string, path: {}, record: firstKeyed };
        }
      }
      return this.loadFixture(row, overrides);
    }
    const path: Record<string, string> = {};
    for (const p of route.params.path) {
      const parent = resourceForParam(this.suite, p.name, route);
      if (!parent) {
        const value = this.parentValue(route, p.name);
        if (value === undefined) fail(`create ${resource}: no resource for path parameter ${p.name}, and its schema allows no value`);
        path[p.name] = value;
      } else path[p.name] = (await this.ensure(parent.name)).id;
    }
    if (this.isSubscription(resource)) {
      this.subscriptionsTouched = true;
      // Deliveries to a subscription the suite made for its own use go to the receiver when there is one (it
      // answers at once), not to a generated host that a lookup or a connection would wait on.
      if (this.target.receiver && !('url' in overrides)) overrides = { ...overrides, url: this.target.receiver.endpoint() };
    }
    const body = await this.bodyFor(route, overrides);
    const request = () => send(this.target, route, { path, ...(body === undefined ? {} : { body }) });
    // A run the World launches is a record other checks use (delete it, tag it), not an execution: launched with
    // the target's run execution off where it has the switch (the execution check launches its own runs).
    const control = this.target.control;
    const launch = route.rules.includes(LAUNCH_RULE) && control?.setRunExecution !== undefined;
    let answer;
    if (launch) {
      await control!.setRunExecution!('manual');
      try {
        answer = await request();
      } finally {
        await control!.setRunExecution!('automatic');
      }
    } else answer = await request();
    expectSuccess(answer, route, `creating a ${resource} (${route.id})`);
    // A create answered with no content (paylocity's local taxes: 201 and no body, issue 27) whose body chose the id
    // (fresh-values.ts): the record is what was sent, found again by that id.
    const sent = route.success.shape.kind === 'none' && body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const record = recordOf(route, answer) ?? sent;
    const answered = record?.[row.id];
    // An integer id (a spec without our vocabulary, issue 27) addresses the record by its decimal text.
    if (typeof answered !== 'string' && !(typeof answered === 'number' && Number.isSafeInteger(answered))) fail(`creating a ${resource}: no ${row.id} in the answer`);
    const id = String(answered);
    const created: Created = { resource, id, path: { ...path, [this.idParam(resource)]: id }, record: record! };
    this.created.push(created);
    return created;
  }

  private async loadFixture(row: ResourceRow, overrides: Record<string, unknown>): Promise<Created> {
    const control = this.target.control;
    if (!control) skip(`the API cannot create a ${row.name} and no control plane was given`);
    const data = validValue({ $ref: defsRef(row.schema) } as never, this.defs, { seed: this.nextSeed() });
    if (data === undefined) fail(`cannot build a valid ${row.name} from its schema`);
    const record = { ...(data as Record<string, unknown>), ...overrides };
    // Generated ids repeat (the generator is deterministic): the sandbox mints one.
    delete record[row.id];
    if (row.properties.includes('name')) delete record.name;
    if (row.lifecycle?.field) record[row.lifecycle.field] = record[row.lifecycle.field] === row.lifecycle.deleted ? 'ACTIVE' : record[row.lifecycle.field];
    for (const hidden of row.lifecycle?.hidden ?? []) if (row.lifecycle?.field && record[row.lifecycle.field] === hidden) record[row.lifecycle.field] = 'ACTIVE';
    const [loaded] = await control.loadFixtures([{ kind: row.name, data: record }]);
    const id = loaded!.id;
    const created: Created = { resource: row.name, id, path: { [this.idParam(row.name)]: id }, record: { ...record, [row.id]: id } };
    this.cache.set(`fixture:${id}`, created);
    this.created.push(created);
    return created;
  }

  /**
   * A record of `resource` loaded through the control plane as stored, with the control plane's options: a
   * workspace (null: a legacy record without one), platform-wide, soft-deleted, with a first version. Skips
   * without a control plane.
   */
  async loadRecord(
    resource: string,
    overrides: Record<string, unknown> = {},
    options: { workspace_id?: string | null; platform?: boolean; deleted?: boolean; with_history?: boolean } = {},
  ): Promise<Created> {
    const control = this.target.control;
    if (!control) skip(`needs the control plane to load a ${resource} as stored`);
    const row = this.resource(resource);
    const data = validValue({ $ref: defsRef(row.schema) } as never, this.defs, { seed: this.nextSeed() });
    if (data === undefined) fail(`cannot build a valid ${row.name} from its schema`);
    const record: Record<string, unknown> = { ...(data as Record<string, unknown>) };
    delete record[row.id];
    if (row.properties.includes('name')) delete record.name;
    delete record.current_version;
    const lc = row.lifecycle;
    if (lc?.field && (record[lc.field] === lc.deleted || lc.hidden.includes(String(record[lc.field])))) record[lc.field] = 'ACTIVE';
    // Unique values (a tag's name) must not clash with records other checks made.
    const create = this.route(resource, 'create');
    if (create) this.makeUnique(record, create);
    Object.assign(record, overrides);
    // The control plane takes these options beside kind and data (src/sandbox/control/openapi.yaml).
    const entry = { kind: row.name, data: record, ...options };
    const [loaded] = await control.loadFixtures([entry]);
    const id = loaded!.id;
    const created: Created = { resource: row.name, id, path: { [this.idParam(row.name)]: id }, record: { ...record, [row.id]: id } };
    this.created.push(created);
    return created;
  }

  /** Path values for a route: its own resource (fresh or shared) and its parents. */
  async pathFor(route: Route, options: { fresh?: boolean } = {}): Promise<{ path: Record<string, string>; created?: Created }> {
    const own = ownParam(route);
    const path: Record<string, string> = {};
    let created: Created | undefined;
    // An operation whose rules need something of its record (rule-needs.ts) gets a record made for it.
    const needs = await recordNeeds(route, this);
    if (needs !== null && own !== undefined && resourceForParam(this.suite, own, route)?.name === route.resource) {
      created = await this.create(route.resource!, needs);
      path[own] = created.id;
    }
    // A create or list names no record of its own: its first parameter is a parent (discord's `{guild_id}` of
    // `/guilds/{guild_id}/templates` with no guilds resource), given a value below.
    const addressesOwn = route.action !== 'create' && route.action !== 'list';
    if (route.resource !== null && own !== undefined && addressesOwn && resourceForParam(this.suite, own, route) === undefined && route.params.path.length > 0) {
      // A resource whose id parameter is not named after it (project_id of review-project).
      created = options.fresh ? await this.create(route.resource) : await this.ensure(route.resource);
      path[own] = created.id;
    }
    for (const p of route.params.path) {
      if (path[p.name] !== undefined) continue;
      const resource = resourceForParam(this.suite, p.name, route);
      if (!resource) continue;
      const instance = p.name === own && options.fresh ? await this.create(resource.name) : created && created.path[p.name] ? { id: created.path[p.name]!, path: created.path } : await this.ensure(resource.name);
      if (p.name === own) created = instance as Created;
      path[p.name] = instance.id;
      // A parent's path gives its own parents; its id parameter may share the route's own one's name (twilio's
      // `{Sid}` of both an account and its address), which the route's record fills.
      for (const [k, v] of Object.entries(instance.path)) if (route.params.path.some((q) => q.name === k) && path[k] === undefined && (k !== own || p.name === own)) path[k] = v;
    }
    // A parameter naming an item of a sub-collection (metric_output_id): the first item its listing answers.
    for (const p of route.params.path) {
      if (path[p.name] !== undefined || resourceForParam(this.suite, p.name, route) !== undefined) continue;
      const item = await this.firstItem(route, p.name, path);
      if (item !== undefined) path[p.name] = item;
    }
    // An operation answered with its example (no state inferred, issue 27), or of no resource at all, names nothing
    // the suite made: any value its parameter's schema allows (twilio's `{AccountSid}` of operations under no
    // inferred resource; mercedes-benz's `{marketId}` of an operation whose answer has no example).
    if (route.example !== null || route.resource === null) {
      for (const p of route.params.path) {
        if (path[p.name] !== undefined) continue;
        const value = validValue(this.suite.schemas[route.id]?.path[p.name] as never, this.defs, { seed: this.nextSeed() });
        if (value !== undefined) path[p.name] = String(value);
      }
    }
    // A parent that names no resource the suite can make (discord's `{channel_id}`: no `/channels` collection):
    // the one value this run gives that parameter, so records made under it are found under it again.
    if (route.resource !== null) {
      for (const p of route.params.path) {
        if (path[p.name] !== undefined || (p.name === own && addressesOwn)) continue;
        const value = this.parentValue(route, p.name);
        if (value !== undefined) path[p.name] = value;
      }
    }
    // A legacy alias's parameters also under their canonical names, so checks can follow up with canonical operations.
    for (const r of route.aliasRenames) if (r.in === 'path' && path[r.legacy] !== undefined) path[r.canonical] ??= path[r.legacy]!;
    return created ? { path, created } : { path };
  }

  /**
   * The `name` of the first item listed by the GET operation at the route's path without its last `/{name}`;
   * undefined when there is no such listing (a version id, which the checks choose themselves).
   */
  /**
   * A value of the path parameter `name` of `route` when it names no resource (issue 27): any value its schema
   * allows, the same one for the whole run (the sandbox keeps it on the records made under it and scopes them by it).
   */
  private parentValue(route: Route, name: string): string | undefined {
    const known = this.parentValues.get(name);
    if (known !== undefined) return known;
    const value = validValue(this.suite.schemas[route.id]?.path[name] as never, this.defs, { seed: this.nextSeed() });
    if (value === undefined || value === null || typeof value === 'object') return undefined;
    this.parentValues.set(name, String(value));
    return String(value);
  }

  private async firstItem(route: Route, name: string, path: Record<string, string>): Promise<string | undefined> {
    const suffix = `/{${name}}`;
    const listing = route.path.endsWith(suffix) ? this.suite.routes.find((r) => r.method === 'GET' && r.path === route.path.slice(0, -suffix.length)) : undefined;
    // A listing under a parent the suite has no value for yet (discord's `/guilds/{guild_id}/requests` with no
    // guilds resource) cannot be read: the parameter gets a value by the rules below instead.
    // A listing that needs a query parameter (britbox's `/lists?ids=`, required: the items it names are the ones
    // asked for) lists nothing the suite could find an id in: the parameter gets a value by the rules below as well.
    if (!listing || listing.params.path.some((p) => path[p.name] === undefined) || listing.params.query.some((p) => p.required)) return undefined;
    const answer = await send(this.target, listing, { path });
    expectSuccess(answer, listing, `listing the items named by ${name}`);
    const body = answer.body as Record<string, unknown>;
    for (const value of Object.values(body ?? {})) {
      const first = Array.isArray(value) ? (value[0] as Record<string, unknown> | undefined) : undefined;
      if (first && typeof first[name] === 'string') return first[name] as string;
    }
    return undefined;
  }

  /** Deletes what the suite created, where the API has a delete operation (best effort, newest first). */
  async cleanUp(): Promise<void> {
    for (const c of [...this.created].reverse()) {
      const route = this.route(c.resource, 'delete');
      if (!route) continue;
      try {
        await send(this.target, route, { path: c.path });
      } catch {
        // Clean-up is best effort: a resource already deleted by a check is fine.
      }
    }
  }
}
