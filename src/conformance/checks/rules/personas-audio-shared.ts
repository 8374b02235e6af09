// What the personas and audio checks share: finding the operation a rule names, reading the discovery
// listings (the sets of valid voices, languages and sounds are their data, so a check works against any
// deployment), loading the records only the control plane can make, and small request helpers.
import { expectError, expectSuccess, send, type Answer } from '../../http.js';
import { fail, lacks, skip } from '../../result.js';
import type { Route, SuiteData } from '../../suite-data.js';
import { recordOf } from '../../world.js';
import type { CheckContext } from '../context.js';
import { onRule } from './records-support.js';


/** A check applies to the one canonical operation of `action` naming `rule`. */
export function appliesTo(rule: string, action: string): (route: Route, suite: SuiteData) => boolean {
  return onRule(rule, (r) => r.action === action);
}

/** The persona-discovery listing whose answer has `key` (voices, phone_numbers, background_sounds). */
export function discoveryRoute(suite: SuiteData, key: string): Route | undefined {
  return suite.routes.find((r) => r.rules.includes('persona-discovery') && r.success.shape.kind === 'other' && r.success.shape.keys.includes(key));
}

export function requireRoute(ctx: CheckContext, route: Route | undefined, what: string): Route {
  if (!route) lacks(`the spec has no ${what} operation`);
  return route;
}

export function requireControl(ctx: CheckContext, why: string): NonNullable<CheckContext['target']['control']> {
  const control = ctx.target.control;
  if (!control) skip(`needs the control plane to ${why}`);
  return control;
}

/** The body of a discovery listing (GET), after checking it answers as the spec says. */
export async function listing(ctx: CheckContext, key: string, query: Record<string, string> = {}): Promise<unknown> {
  const route = requireRoute(ctx, discoveryRoute(ctx.suite, key), `listing of ${key}`);
  const answer = await send(ctx.target, route, { query });
  expectSuccess(answer, route, `GET ${route.path}`);
  return (answer.body as Record<string, unknown>)[key];
}

export interface Voice {
  voice_name: string;
  supported_languages: string[];
}

export async function listedVoices(ctx: CheckContext): Promise<Voice[]> {
  return (await listing(ctx, 'voices')) as Voice[];
}

export function speaks(voice: Voice, language: string): boolean {
  return voice.supported_languages.some((l) => l.toLowerCase() === language.toLowerCase());
}

/** A listed voice with a listed language of another voice it does not speak (for a refusal), if any. */
export function voiceMissingALanguage(voices: Voice[]): { voice: Voice; foreign: string } | undefined {
  const all = [...new Set(voices.flatMap((v) => v.supported_languages))];
  for (const voice of [...voices].sort((a, b) => a.supported_languages.length - b.supported_languages.length)) {
    const foreign = all.find((l) => !speaks(voice, l));
    if (voice.supported_languages.length > 0 && foreign !== undefined) return { voice, foreign };
  }
  return undefined;
}

/**
 * A BCP-47 private-use tag (`x-` and up to 8 letters or digits) no listed voice speaks, fresh for each call
 * so that fixtures speaking it (custom voices, which a deployment may list) never collide across runs.
 */
export function unlistedLanguage(ctx: CheckContext, voices: Voice[]): string {
  for (let attempt = 0; attempt < 5; attempt++) {
    const tag = `x-${unique(ctx).slice(-8)}`;
    if (!voices.some((v) => speaks(v, tag))) return tag;
  }
  skip('no private-use language tag is free of the listed voices');
}

/** Loads records only the control plane can make (custom voices and sounds, voices, phone numbers). */
export async function loadFixture(ctx: CheckContext, kind: string, data: Record<string, unknown>, why: string): Promise<string> {
  const control = requireControl(ctx, why);
  const [loaded] = await control.loadFixtures([{ kind, data }]);
  if (!loaded) fail(`loading a ${kind} fixture answered no record`);
  return loaded.id;
}

/** The record in a success answer of the route, failing with `what` otherwise. */
export function successRecord(answer: Answer, route: Route, what: string): Record<string, unknown> {
  expectSuccess(answer, route, what);
  const record = recordOf(route, answer);
  if (!record) fail(`${what}: no record in the answer`);
  return record;
}

/**
 * Sends and expects `status` (400 INVALID_ARGUMENT by default) with a detail naming one of `fields`
 * (comma-separated) that says why (seed, Errors: "detail field names the offender"; a detail's description
 * is what tells the client what to change, so an empty one is a failure too).
 */
export async function expectRefused(
  ctx: CheckContext,
  route: Route,
  spec: Parameters<typeof send>[2],
  fields: string,
  what: string,
  status: 400 | 404 | 409 = 400,
): Promise<void> {
  const answer = await send(ctx.target, route, spec);
  const code = status === 400 ? 'INVALID_ARGUMENT' : status === 404 ? 'NOT_FOUND' : 'ALREADY_EXISTS';
  expectError(answer, status, code, fields, what);
  const names = fields.split(',');
  const details = (answer.body as { error: { details?: { field?: string | null; description?: string }[] } }).error.details ?? [];
  const named = details.filter((d) => names.some((n) => d.field === n || d.field?.startsWith(`${n}.`) || d.field?.startsWith(`${n}[`)));
  if (named.length > 0 && !named.some((d) => typeof d.description === 'string' && d.description.trim() !== '')) {
    fail(`${what}: the detail on ${fields} has no description saying why`);
  }
}

/** A unique suffix for names and values a check makes up. */
export function unique(ctx: CheckContext): string {
  return `${Date.now().toString(36)}${ctx.world.nextSeed()}`;
}

/** Fails unless `actual` is `expected` (by JSON), naming the field. */
export function expectField(record: Record<string, unknown>, field: string, expected: unknown, what: string): void {
  const actual = record[field];
  const same = expected === undefined ? actual === undefined || actual === null : JSON.stringify(actual) === JSON.stringify(expected);
  if (!same) fail(`${what}: expected ${field} ${expected === undefined ? 'absent or null' : JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
