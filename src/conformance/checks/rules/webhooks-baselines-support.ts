// What the webhook and baseline checks share: finding their operations in the suite, the capabilities they
// need from the target, the EWMA reference computation, and small comparisons with readable failures.
import { expectSuccess, send, type Answer } from '../../http.js';
import { fail, skip } from '../../result.js';
import type { Route, SuiteData } from '../../suite-data.js';
import type { ControlAccess, WebhookReceiver } from '../../target.js';
import { deref, recordOf } from '../../world.js';
import type { CheckContext } from '../context.js';

/** The canonical (non-alias) operation of a resource and action. */
export function canonical(suite: SuiteData, resource: string, action: string): Route | undefined {
  return suite.routes.find((r) => r.resource === resource && r.action === action && r.aliasOf === null);
}

/** Whether `route` is the canonical operation of resource/action and names `rule` in x-rules. */
export function isRuleOperation(route: Route, suite: SuiteData, resource: string, action: string, rule: string): boolean {
  return route.id === canonical(suite, resource, action)?.id && route.rules.includes(rule);
}

/** Whether the spec's x-handlers give `rule` the event `on`. */
export function handles(suite: SuiteData, on: string, rule: string): boolean {
  return suite.handlers.some((h) => h.on === on && h.rule === rule);
}

export function needControl(ctx: CheckContext, why: string): ControlAccess {
  const control = ctx.target.control;
  if (!control) skip(`needs the control plane to ${why}`);
  return control;
}

export function needReceiver(ctx: CheckContext, why: string): WebhookReceiver {
  const receiver = ctx.target.receiver;
  if (!receiver) skip(`needs a webhook receiver whose answers the check chooses to ${why}`);
  return receiver;
}

export function routeOf(ctx: CheckContext, resource: string, action: string): Route {
  const route = canonical(ctx.suite, resource, action);
  if (!route) fail(`the spec has no ${action} operation for ${resource}`);
  return route;
}

/** The record of a success answer, failing with what came back otherwise. */
export function successRecord(answer: Answer, route: Route, what: string): Record<string, unknown> {
  expectSuccess(answer, route, what);
  const record = recordOf(route, answer);
  if (!record) fail(`${what}: no record in the answer ${answer.text.slice(0, 200)}`);
  return record;
}

/** A schema of suite.defs (followed through $ref / allOf). */
export function def(suite: SuiteData, name: string): Record<string, unknown> {
  return deref({ $ref: `#/$defs/${name}` }, suite.defs);
}

/** The enum values of a suite.defs schema. */
export function enumOf(suite: SuiteData, name: string): string[] {
  const values = def(suite, name).enum;
  if (!Array.isArray(values)) fail(`the spec's ${name} has no enum`);
  return values as string[];
}

/** An id that no metric of the target has, shaped as a metric id (22 alphanumerics), unique per call. */
let metricCounter = 0;
export function unusedMetricId(): string {
  const stamp = `${Date.now().toString(36)}${(++metricCounter).toString(36)}`.replace(/[^0-9a-z]/g, '');
  return `ConfMetric${stamp}`.padEnd(22, 'x').slice(0, 22);
}

// --- EWMA, as docs/sandbox.md "EWMA baselines" states it (the seed names EWMA and the fields only) ---

/** Smoothing constant α of the documented EWMA. */
export const ALPHA = 0.3;

export interface Estimate {
  mean: number;
  sigma: number;
  count: number;
}

/**
 * The estimates after each observation: first mean = x, variance = 0; then d = x − mean,
 * mean ← mean + α·d, variance ← (1 − α)·(variance + α·d²); sigma = √variance.
 */
export function ewmaSteps(observations: number[]): Estimate[] {
  const steps: Estimate[] = [];
  let mean = 0;
  let variance = 0;
  observations.forEach((x, i) => {
    if (i === 0) {
      mean = x;
      variance = 0;
    } else {
      const d = x - mean;
      mean += ALPHA * d;
      variance = (1 - ALPHA) * (variance + ALPHA * d * d);
    }
    steps.push({ mean, sigma: Math.sqrt(variance), count: i + 1 });
  });
  return steps;
}

export function ewma(observations: number[]): Estimate {
  return ewmaSteps(observations).at(-1) ?? { mean: 0, sigma: 0, count: 0 };
}

export function average(values: number[]): number {
  return values.reduce((a, x) => a + x, 0) / values.length;
}

export function close(actual: unknown, expected: number): boolean {
  return typeof actual === 'number' && Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
}

/** Fails unless the record's baseline_float / baseline_sigma / observation_count are the expected estimate. */
export function expectEstimate(record: Record<string, unknown>, expected: Estimate, what: string): void {
  const got = { mean: record.baseline_float, sigma: record.baseline_sigma, count: record.observation_count };
  if (!close(got.mean, expected.mean) || !close(got.sigma, expected.sigma) || got.count !== expected.count) {
    fail(`${what}: expected baseline_float ${expected.mean}, baseline_sigma ${expected.sigma}, observation_count ${expected.count}; got ${String(got.mean)}, ${String(got.sigma)}, ${String(got.count)}`);
  }
}

// --- baselines through the API ---

export interface BaselineRef {
  path: { metric_id: string; baseline_id: string };
  record: Record<string, unknown>;
}

/** A fresh metric (through the API) to hang baselines on. */
export async function freshMetric(ctx: CheckContext): Promise<string> {
  return (await ctx.world.create('metric')).id;
}

/** Creates a baseline of `metricId`: organization-wide, ACTIVE, unless `overrides` say otherwise. */
export async function createBaseline(ctx: CheckContext, metricId: string, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<BaselineRef> {
  const route = routeOf(ctx, 'baseline', 'create');
  const body = await ctx.world.bodyFor(route, { agent_id: null, test_set_id: null, persona_id: null, status: 'ACTIVE', ...overrides });
  const record = successRecord(await send(ctx.target, route, { path: { metric_id: metricId }, body, headers }), route, 'creating a baseline');
  return { path: { metric_id: metricId, baseline_id: String(record.ulid) }, record };
}

export async function getBaseline(ctx: CheckContext, path: BaselineRef['path'], query: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const route = routeOf(ctx, 'baseline', 'get');
  return successRecord(await send(ctx.target, route, { path, query }), route, 'getting the baseline');
}

/** Completes one run per value (in order, at the given completion times when given) with `metricId` = value. */
export async function completeRuns(control: ControlAccess, metricId: string, values: (number | number[])[], times: string[] = []): Promise<void> {
  for (const [i, value] of values.entries()) {
    await control.completeRun({ metric_values: { [metricId]: value }, ...(times[i] ? { completed_at: times[i] } : {}) });
  }
}

/** The observation x of one run: the mean of its results for the metric (a number is one result). */
export function observation(value: number | number[]): number {
  return Array.isArray(value) ? average(value) : value;
}
