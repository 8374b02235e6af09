// Shared set-up of the alert checks: alerts created through the API, runs completed through the control
// plane, and what each completion sent. Every alert a lab creates is restricted (required_tags) to the lab's
// own tag unless a check says otherwise, and every run it completes carries that tag, so the alerts of one
// check never see the runs of another (and are deleted when the operation's checks are done).
import { expectSuccess, send } from '../../http.js';
import { fail, lacks, skip } from '../../result.js';
import type { Route, SuiteData } from '../../suite-data.js';
import type { ControlAccess } from '../../target.js';
import { recordOf } from '../../world.js';
import { launchScripted } from './scripted-runs.js';
import type { CheckContext } from '../context.js';

export type Json = Record<string, unknown>;

export const EVALUATE = 'evaluate-alerts';
export const REPLACE_SETS = 'alert-replace-sets';

/** The alert operation with this action (its canonical route, not an alias). */
export function alertRoute(suite: SuiteData, action: string): Route | undefined {
  return suite.routes.find((r) => r.resource === 'alert' && r.action === action && r.aliasOf === null);
}

/** Applies to the alert operation with this action when the spec handles run.completed with evaluate-alerts. */
export function onAlertOperation(action: string): (route: Route, suite: SuiteData) => boolean {
  return (route, suite) => route.id === alertRoute(suite, action)?.id && suite.handlers.some((h) => h.on === 'run.completed' && h.rule === EVALUATE);
}

/** Applies to the alert operation with this action when the spec names alert-replace-sets for it. */
export function onReplaceSets(action: string): (route: Route, suite: SuiteData) => boolean {
  return (route, suite) => route.id === alertRoute(suite, action)?.id && route.rules.includes(REPLACE_SETS);
}

/** The values of a spec enum, or a skip when one the check needs is missing. */
export function enumValues(suite: SuiteData, def: string, needed: readonly string[]): string[] {
  const values = ((suite.defs[def] as { enum?: unknown[] } | undefined)?.enum ?? []).map(String);
  const missing = needed.filter((v) => !values.includes(v));
  if (missing.length > 0) lacks(`the spec's ${def} has no ${missing.join(', ')}`);
  return values;
}

export function condition(metricId: string, aggregation: string, operator: string, threshold: number | null, extra: Json = {}): Json {
  return { metric_id: metricId, aggregation, operator, ...(threshold === null ? {} : { threshold_float: threshold }), ...extra };
}

let fixtureCounter = 0;

/** A ulid-shaped id (26 of 0-9A-Z) for the items of a stored alert loaded as a fixture. */
export function fixtureUlid(): string {
  const text = `${Date.now().toString(36)}${(++fixtureCounter).toString(36)}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  return text.toUpperCase().replace(/[^0-9A-Z]/g, '').padEnd(26, '0').slice(0, 26);
}

export function idOf(alert: Json): string {
  return String(alert.ulid ?? alert.id);
}

export interface Completion {
  run: Json;
  sent: Json[];
  /** The completion time sent with the run. */
  at: string;
}

/** The alert_notification entries a completion recorded for one alert. */
export function notesOf(done: Completion, alert: Json): Json[] {
  return done.sent.filter((s) => s.kind === 'alert_notification' && s.alert_id === idOf(alert));
}

/** The payload of the alert's first notification for this completion, if it fired. */
export function payloadOf(done: Completion, alert: Json): Json | undefined {
  return notesOf(done, alert)[0]?.payload as Json | undefined;
}

/** The condition results of a firing (the sandbox's payload: conditions [{metric_id, value, met, ...}]). */
export function conditionsOf(payload: Json | undefined): Json[] {
  return Array.isArray(payload?.conditions) ? (payload.conditions as Json[]) : [];
}

export function near(a: unknown, b: number): boolean {
  return typeof a === 'number' && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

const DAY = 86_400_000;

export class AlertLab {
  readonly tag: string;
  /** Completion times start here and move on a minute per run unless a run names its own. */
  readonly base: number;
  private clock: number;

  private constructor(
    readonly ctx: CheckContext,
    readonly control: ControlAccess,
  ) {
    const seed = ctx.world.nextSeed();
    this.tag = `conformance-alerts-${Date.now().toString(36)}-${seed}`;
    // A day of its own per lab, far from the runs other checks complete "now".
    this.base = Date.UTC(2031, 0, 1) + seed * DAY;
    this.clock = this.base;
  }

  static open(ctx: CheckContext): AlertLab {
    const control = ctx.target.control;
    if (!control) skip('needs the control plane to complete runs and see the notifications');
    return new AlertLab(ctx, control);
  }

  /** An ISO time `ms` after the lab's base. */
  iso(ms: number): string {
    return new Date(this.base + ms).toISOString();
  }

  route(action: string): Route {
    const route = alertRoute(this.ctx.suite, action);
    if (!route) lacks(`the spec has no alert ${action} operation`);
    return route;
  }

  async metric(): Promise<string> {
    return (await this.ctx.world.create('metric')).id;
  }

  async agent(): Promise<string> {
    return (await this.ctx.world.create('agent')).id;
  }

  /** An ACTIVE alert, by default in the lab's scope (its tag), without cooldown, with one SLACK channel. */
  async alert(fields: Json, headers: Record<string, string> = {}): Promise<Json> {
    const route = this.route('create');
    const body: Json = {
      name: `conformance alert ${this.ctx.world.nextSeed()}`,
      evaluation_type: 'ON_RUN_COMPLETE',
      conversation_source: 'ALL',
      match_mode: 'ALL',
      cooldown_seconds: 0,
      agent_ids: [],
      required_tags: [this.tag],
      scheduled_run_ids: [],
      channels: [{ channel_type: 'SLACK', config: { channel_name: '#alerts' } }],
      ...fields,
    };
    const answer = await send(this.ctx.target, route, { body, headers });
    expectSuccess(answer, route, 'creating an alert');
    const record = recordOf(route, answer)!;
    this.ctx.world.created.push({ resource: 'alert', id: idOf(record), path: { alert_id: idOf(record) }, record });
    return record;
  }

  /**
   * Stored alerts loaded as fixtures (records the API cannot produce), by label; remembered for clean-up like
   * the created ones. `deleted` and `workspace_id` are FixtureRecord fields (src/sandbox/control/openapi.yaml).
   */
  async stored(fixtures: Record<string, { data: Json; deleted?: boolean; workspace_id?: string }>): Promise<Record<string, Json>> {
    const labels = Object.keys(fixtures);
    const loaded = await this.control.loadFixtures(labels.map((l) => ({ kind: 'alert', ...fixtures[l]! })));
    const out: Record<string, Json> = {};
    labels.forEach((label, i) => {
      const id = loaded[i]!.id;
      out[label] = { ulid: id };
      this.ctx.world.created.push({ resource: 'alert', id, path: { alert_id: id }, record: { ulid: id } });
    });
    return out;
  }

  /** Deletes alerts now (a stored one outside the schema must not reach the list checks); refusals ignored. */
  async remove(alerts: Json[]): Promise<void> {
    const route = this.route('delete');
    for (const alert of alerts) await send(this.ctx.target, route, { path: { alert_id: idOf(alert) } });
  }

  /** Several alerts, by label. */
  async alerts(specs: Record<string, Json>): Promise<Record<string, Json>> {
    const out: Record<string, Json> = {};
    for (const [label, fields] of Object.entries(specs)) out[label] = await this.alert(fields);
    return out;
  }

  async get(alert: Json): Promise<Json> {
    const route = this.route('get');
    const answer = await send(this.ctx.target, route, { path: { alert_id: idOf(alert) } });
    expectSuccess(answer, route, 'getting the alert');
    return recordOf(route, answer)!;
  }

  /**
   * Launches a run through the API (not completed); its id. The launch requires a persona and a test set: fresh
   * ones unless the body names them, so no baseline scoped to a shared one matches the run by accident.
   */
  async launch(body: Json): Promise<string> {
    const route = this.ctx.world.route('run', 'create');
    if (!route) lacks('the spec has no run create operation');
    const required: Json = {};
    for (const [field, resource] of [['persona_id', 'persona'], ['test_set_id', 'test_set']] as const) {
      if (body[field] === undefined) required[field] = (await this.ctx.world.create(resource)).id;
    }
    // The lab completes its runs itself (complete()): launched with the target's execution off.
    const answer = await launchScripted(this.ctx, () => send(this.ctx.target, route, { body: { ...required, ...body } }));
    expectSuccess(answer, route, 'launching a run');
    return String(recordOf(route, answer)![this.ctx.world.resource('run').id]);
  }

  /** Completes a run with these metric values; by default with the lab's tag, a minute after the last. */
  async complete(values: Record<string, number | number[]>, run: Json = {}): Promise<Completion> {
    this.clock += 60_000;
    const at = typeof run.completed_at === 'string' ? run.completed_at : new Date(this.clock).toISOString();
    const done = await this.control.completeRun({ tags: [this.tag], ...run, completed_at: at, metric_values: values });
    return { ...done, at };
  }
}

export interface Step {
  label: string;
  values: Record<string, number | number[]>;
  /** Further completion fields (agent_id, tags, conversation_source, scheduled_run_id, completed_at). */
  run?: Json;
  /** The labels of the alerts that must fire; null: not checked at this step. */
  fires: string[] | null;
}

function describeFirings(done: Completion, alerts: Record<string, Json>, labels: string[]): string {
  return labels.map((l) => `${l} (${conditionsOf(payloadOf(done, alerts[l]!)).map((c) => String(c.value)).join(', ')})`).join(', ');
}

/** Completes the steps' runs in order; each must fire exactly the listed alerts. All differences in one failure. */
export async function expectFirings(lab: AlertLab, alerts: Record<string, Json>, steps: Step[]): Promise<Completion[]> {
  const problems: string[] = [];
  const done: Completion[] = [];
  for (const step of steps) {
    const completion = await lab.complete(step.values, step.run);
    done.push(completion);
    if (step.fires === null) continue;
    const fired = Object.keys(alerts).filter((label) => notesOf(completion, alerts[label]!).length > 0);
    const missing = step.fires.filter((l) => !fired.includes(l));
    const extra = fired.filter((l) => !step.fires!.includes(l));
    if (missing.length > 0) problems.push(`${step.label}: expected ${missing.join(', ')} to fire, it did not`);
    if (extra.length > 0) problems.push(`${step.label}: expected ${extra.join(', ')} to stay quiet, fired with value ${describeFirings(completion, alerts, extra)}`);
  }
  if (problems.length > 0) fail(problems.join('; '));
  return done;
}

/**
 * The data of a stored alert loaded as a fixture (records the API cannot produce: an inconsistent lifecycle, an
 * unknown type, earlier attribution): ACTIVE, in the lab's scope, one SINGLE condition (> 0.5), one SLACK channel.
 */
export function alertFixture(lab: AlertLab, metric: string, data: Json): Json {
  return {
    name: `conformance fixture alert ${lab.ctx.world.nextSeed()}`,
    status: 'ACTIVE',
    enabled: true,
    evaluation_type: 'ON_RUN_COMPLETE',
    conversation_source: 'ALL',
    match_mode: 'ALL',
    cooldown_seconds: 0,
    trigger_count: 0,
    last_triggered_at: null,
    agent_ids: [],
    required_tags: [lab.tag],
    scheduled_run_ids: [],
    conditions: [{ ulid: fixtureUlid(), metric_id: metric, aggregation: 'SINGLE', operator: 'GT', threshold_float: 0.5, match_mode: 'exact' }],
    channels: [{ ulid: fixtureUlid(), channel_type: 'SLACK', config: { channel_name: '#alerts' } }],
    ...data,
  };
}
