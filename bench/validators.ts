// Validator throughput: our generated, dependency-free validators (generated/client/validators.js) against
// Ajv (JSON Schema 2020-12 draft, compiled), TypeBox (TypeCompiler) and typia (ahead-of-time generated, from
// TypeScript types with typia's constraint tags: bench/typia-peer.ts) on the same request bodies, all built from
// the same JSON Schemas the generator works from (the model's), in one process, interleaved.
//
// Two modes:
// - `is`: boolean answer only. Ours `.is()`, Ajv `validate()` of an `allErrors: false` instance,
//   TypeBox `Check()`, typia `createIs`.
// - `all errors`: the answer plus every error. Ours `.validate()` (one pass of the error collector, valid when
//   it records nothing), Ajv `validate()` of an `allErrors: true` instance (reading `.errors`), TypeBox
//   `Check()` then, only when invalid, `[...Errors()]`, typia `createValidate` (it collects every error).
//
// Environment (all optional): BENCH_VALIDATORS (module under test), BENCH_SPEC (spec the peers are built from),
// BENCH_FILTER (cases to run), BENCH_CLOCK=cpu (CPU time instead of wall time), BENCH_RUNS / BENCH_RUN_MS /
// BENCH_WARMUP_MS (measurement lengths).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { loadSpecs } from '../src/load/index.js';
import { buildModel } from '../src/model/index.js';
import type { ApiModel, SchemaNode } from '../src/model/index.js';
import { toTypeBox } from './json-schema-to-typebox.js';
import { typiaValidators, typiaVersion, type TypiaValidators } from './typia-peer.js';
import { cpuClock, DEFAULT_MEASURE, measureInterleaved, wallClock, type MeasureOptions, type Stats, type Subject } from './measure.js';
import type { BenchOptions, BenchResult, Row, Target } from './types.js';

// ajv-formats is CommonJS (`module.exports = formatsPlugin`, plus `.default`); accept either shape.
const addFormats: (ajv: Ajv2020) => unknown =
  (addFormatsModule as unknown as { default?: (ajv: Ajv2020) => unknown }).default ??
  (addFormatsModule as unknown as (ajv: Ajv2020) => unknown);

function version(pkg: string): string {
  const url = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

// The module under test: the committed generated/client/validators.js, or another build of it named by
// BENCH_VALIDATORS (a path, e.g. BENCH_VALIDATORS=/tmp/gen/client/validators.js after
// `npx tsx src/cli/generate.ts --out /tmp/gen`).
const validatorsUrl = process.env.BENCH_VALIDATORS
  ? pathToFileURL(resolve(process.env.BENCH_VALIDATORS)).href
  : new URL('../generated/client/validators.js', import.meta.url).href;
const { updateAlertBodyValidator, updatePersonaBodyValidator } = (await import(validatorsUrl)) as Record<string, unknown>;

/**
 * A private copy of the module under test (the same file under another query string is another module instance):
 * each timed case gets its own functions, so the JIT state one case leaves (type feedback, a deoptimisation) never
 * slows another case down. Measured: the same case ran 13x slower in one full run than alone before this.
 */
async function privateOurs(exportName: string, instance: number): Promise<OursValidator> {
  const mod = (await import(`${validatorsUrl}?instance=${instance}`)) as Record<string, unknown>;
  return mod[exportName] as OursValidator;
}

/** The smoke run's measurement: one run of a few ms per subject (proves the case runs; the figure means nothing). */
const SMOKE_MEASURE: MeasureOptions = { runs: 1, runMs: 2, warmupMs: 1 };

/** BENCH_RUNS / BENCH_RUN_MS / BENCH_WARMUP_MS override the measurement defaults (quicker local runs). */
function measureOptions(): MeasureOptions {
  const n = (name: string, fallback: number): number => {
    const v = Number(process.env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return { runs: n('BENCH_RUNS', DEFAULT_MEASURE.runs), runMs: n('BENCH_RUN_MS', DEFAULT_MEASURE.runMs), warmupMs: n('BENCH_WARMUP_MS', DEFAULT_MEASURE.warmupMs) };
}

interface OursValidator {
  validate(value: unknown): { ok: true; value: unknown } | { ok: false; errors: { field: string | null; description: string }[] };
  is(value: unknown): boolean;
}

interface Body {
  label: string;
  operationId: string;
  /** The export of the module under test that validates this body. */
  exportName: string;
  ours: OursValidator;
  valid: unknown;
  invalid: unknown;
  /** Extra single-change variants, only for the agreement check (not timed). */
  probes: Array<[string, unknown]>;
}

// ---- inputs -------------------------------------------------------------------------------------------------

const personaValid = {
  name: 'Frustrated billing customer',
  persona_prompt: 'You were charged twice for the same order and want a refund today. Stay polite but firm.',
  silent_mode: false,
  voice: 'coral',
  language_code: 'en-US',
  background_sound: 'office',
  background_sound_volume: 0.35,
  voice_volume: 1.1,
  voice_speed: 1.05,
  wait_seconds: 0.6,
  conversation_initiation: 'wait_for_user',
  interruption_rate: 'LOW',
  multi_language_stt: false,
  hold_music_timeout_seconds: 90,
  initialization_parameters: { customer_name: 'Dana Whitfield', account_tier: 'gold', order_total: 129.9 },
  tags: ['billing', 'refund', 'escalation', 'en-US'],
};

const personaInvalid = {
  ...personaValid,
  name: '',
  voice: 'nope',
  voice_speed: 5,
  tags: Array.from({ length: 21 }, (_, i) => `tag-${i + 1}`),
};

const alertValid = {
  name: 'Resolution rate dropped',
  description: 'Fires when fewer than 80% of simulated billing conversations end resolved.',
  evaluation_type: 'ON_RUN_COMPLETE',
  conversation_source: 'SIMULATED',
  match_mode: 'ANY',
  cooldown_seconds: 3600,
  agent_ids: ['01J9Z3K4M5N6P7Q8R9S0T1V2W3', '01J9Z3K4M5N6P7Q8R9S0T1V2W4'],
  required_tags: ['billing'],
  conditions: [
    { metric_id: 'resolution_rate', aggregation: 'RUN_AVERAGE', operator: 'LT', threshold_float: 0.8, window_size_runs: 5 },
    { metric_id: 'sentiment', aggregation: 'SINGLE', operator: 'EQ', match_value: 'negative', match_mode: 'contains_case_insensitive' },
  ],
  channels: [
    { channel_type: 'SLACK', config: { channel_id: 'C024BE91L', channel_name: '#quality-alerts' } },
    { channel_type: 'WEBHOOK', config: { url: 'https://hooks.example.com/alerts', method: 'POST', auth_token: 's3cr3t' } },
  ],
};

const alertInvalid = {
  ...alertValid,
  cooldown_seconds: 100000,
  conditions: [],
  match_mode: 'SOME',
};

const bodies: Body[] = [
  {
    label: 'persona body',
    operationId: 'updatePersona',
    exportName: 'updatePersonaBodyValidator',
    ours: updatePersonaBodyValidator as unknown as OursValidator,
    valid: personaValid,
    invalid: personaInvalid,
    probes: [
      ['empty object', {}],
      ['all nulls', Object.fromEntries(Object.keys(personaValid).map((k) => [k, null]))],
      ['array body', []],
      ['null body', null],
      ['name only empty', { ...personaValid, name: '' }],
      ['name 201 chars', { ...personaValid, name: 'x'.repeat(201) }],
      ['voice nope', { ...personaValid, voice: 'nope' }],
      ['voice_speed 5', { ...personaValid, voice_speed: 5 }],
      ['voice_speed 0.25', { ...personaValid, voice_speed: 0.25 }],
      ['voice_speed string', { ...personaValid, voice_speed: '1' }],
      ['tags 20', { ...personaValid, tags: Array.from({ length: 20 }, (_, i) => `t${i}`) }],
      ['tags 21', { ...personaValid, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
      ['tag blank', { ...personaValid, tags: ['ok', '   '] }],
      ['tag empty', { ...personaValid, tags: [''] }],
      ['tag number', { ...personaValid, tags: [1] }],
      ['background custom', { ...personaValid, background_sound: 'custom:abc_123' }],
      ['background bad', { ...personaValid, background_sound: 'jungle' }],
      ['hold music 4', { ...personaValid, hold_music_timeout_seconds: 4 }],
      ['init params array', { ...personaValid, initialization_parameters: [] }],
      ['silent_mode string', { ...personaValid, silent_mode: 'yes' }],
      ['unknown property', { ...personaValid, extra: 1 }],
    ],
  },
  {
    label: 'alert body',
    operationId: 'updateAlert',
    exportName: 'updateAlertBodyValidator',
    ours: updateAlertBodyValidator as unknown as OursValidator,
    valid: alertValid,
    invalid: alertInvalid,
    probes: [
      ['empty object', {}],
      ['array body', []],
      ['cooldown 100000', { ...alertValid, cooldown_seconds: 100000 }],
      ['cooldown 1.5', { ...alertValid, cooldown_seconds: 1.5 }],
      ['cooldown 86400', { ...alertValid, cooldown_seconds: 86400 }],
      ['conditions empty', { ...alertValid, conditions: [] }],
      ['match_mode SOME', { ...alertValid, match_mode: 'SOME' }],
      ['evaluation_type bad', { ...alertValid, evaluation_type: 'DAILY' }],
      ['condition missing operator', { ...alertValid, conditions: [{ metric_id: 'm', aggregation: 'SINGLE' }] }],
      ['condition bad operator', { ...alertValid, conditions: [{ metric_id: 'm', aggregation: 'SINGLE', operator: 'LIKE' }] }],
      ['condition match_mode bad', { ...alertValid, conditions: [{ metric_id: 'm', aggregation: 'SINGLE', operator: 'EQ', match_mode: 'ANY' }] }],
      ['condition window 0', { ...alertValid, conditions: [{ metric_id: 'm', aggregation: 'SINGLE', operator: 'EQ', window_size_days: 0 }] }],
      ['condition threshold null', { ...alertValid, conditions: [{ metric_id: 'm', aggregation: 'SINGLE', operator: 'EQ', threshold_float: null }] }],
      ['channel missing config', { ...alertValid, channels: [{ channel_type: 'EMAIL' }] }],
      ['channel bad type', { ...alertValid, channels: [{ channel_type: 'SMS', config: {} }] }],
      ['channel recipients string', { ...alertValid, channels: [{ channel_type: 'EMAIL', config: { recipients: 'a@b.c' } }] }],
      ['channels empty', { ...alertValid, channels: [] }],
      ['agent_ids number', { ...alertValid, agent_ids: [1] }],
      ['name null', { ...alertValid, name: null }],
    ],
  },
];

// ---- peers ----------------------------------------------------------------------------------------------------

function bodySchema(model: ApiModel, operationId: string): SchemaNode {
  const op = model.operations.find((o) => o.id === operationId);
  if (!op) throw new Error(`operation ${operationId} not in the model`);
  const json = op.requestBody?.content.find((c) => c.mediaType === 'application/json');
  if (!json) throw new Error(`operation ${operationId} has no application/json request body`);
  return json.schema;
}

interface Peers {
  ajvIs: (x: unknown) => boolean;
  ajvAll: ((x: unknown) => boolean) & { errors?: unknown[] | null };
  tb: ReturnType<typeof TypeCompiler.Compile>;
  typia: TypiaValidators;
}

function buildPeers(model: ApiModel, operationId: string, ajvFast: Ajv2020, ajvAll: Ajv2020, typia: TypiaValidators): Peers {
  const defs = Object.fromEntries(Object.entries(model.schemas).map(([k, v]) => [k, v.schema]));
  const body = bodySchema(model, operationId);
  if (typeof body !== 'object') throw new Error(`${operationId}: boolean body schema`);
  const root = { $defs: defs, ...body };
  return {
    ajvIs: ajvFast.compile(root),
    ajvAll: ajvAll.compile(root),
    tb: TypeCompiler.Compile(toTypeBox(body, defs)),
    typia,
  };
}

// ---- agreement ------------------------------------------------------------------------------------------------

function checkAgreement(body: Body, peers: Peers): string {
  const cases: Array<[string, unknown, boolean | null]> = [
    ['valid', body.valid, true],
    ['invalid', body.invalid, false],
    ...body.probes.map(([n, v]): [string, unknown, null] => [n, v, null]),
  ];
  const problems: string[] = [];
  for (const [name, value, expected] of cases) {
    const ours = body.ours.is(value);
    const oursV = body.ours.validate(value).ok;
    const ajv = peers.ajvIs(value);
    const ajvAll = peers.ajvAll(value);
    const tb = peers.tb.Check(value);
    const tbErrs = [...peers.tb.Errors(value)].length === 0;
    const typiaIs = peers.typia.is(value);
    const typiaV = peers.typia.validate(value).success;
    const all = [ours, oursV, ajv, ajvAll, tb, tbErrs, typiaIs, typiaV];
    if (all.some((a) => a !== ours) || (expected !== null && ours !== expected)) {
      problems.push(
        `${body.label} / ${name}: expected ${expected ?? 'agreement'}; ours.is=${ours} ours.validate=${oursV} ajv=${ajv} ajv(allErrors)=${ajvAll} typebox.Check=${tb} typebox.Errors-empty=${tbErrs} typia.is=${typiaIs} typia.validate=${typiaV}`,
      );
    }
  }
  if (problems.length > 0) throw new Error(`validators disagree:\n  ${problems.join('\n  ')}`);

  const ourErrs = body.ours.validate(body.invalid);
  peers.ajvAll(body.invalid);
  const counts = {
    ours: ourErrs.ok ? 0 : ourErrs.errors.length,
    ajv: peers.ajvAll.errors?.length ?? 0,
    typebox: [...peers.tb.Errors(body.invalid)].length,
    typia: peers.typia.validate(body.invalid).errors?.length ?? 0,
  };
  return `${body.label}: all four agree on ${cases.length} inputs; errors reported for the invalid input (all-errors mode): ours ${counts.ours}, ajv ${counts.ajv}, typebox ${counts.typebox}, typia ${counts.typia}`;
}

// ---- bench ----------------------------------------------------------------------------------------------------

type Impl = 'ours' | 'ajv' | 'typebox' | 'typia';

/** The goal of issue 31: ours at least this many times the fastest peer, in every case. */
const GOAL = 1.5;

export async function benchValidators(options: BenchOptions = {}): Promise<BenchResult> {
  // BENCH_SPEC: the spec the peers are built from (default spec/); give the one BENCH_VALIDATORS was generated from.
  const model = buildModel(await loadSpecs(process.env.BENCH_SPEC ?? 'spec'), { policy: 'strict' });
  const ajvFast = new Ajv2020({ allErrors: false, strict: false });
  const ajvAll = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajvFast);
  addFormats(ajvAll);
  const ajvName = `ajv ${version('ajv')}`;
  const tbName = `typebox ${version('@sinclair/typebox')}`;
  const typiaName = `typia ${typiaVersion()}`;
  const defs = Object.fromEntries(Object.entries(model.schemas).map(([k, v]) => [k, v.schema]));
  const typiaRoots = Object.fromEntries(bodies.map((b) => [b.operationId, bodySchema(model, b.operationId)])) as never;
  const typia = await typiaValidators(typiaRoots, defs as never);
  // Every timed case gets private copies of every subject (ours and typia: fresh module instances; Ajv and TypeBox:
  // compiled again), so the cases cannot disturb each other through shared JIT state.
  let instance = 0;
  const privateSubjects = async (body: Body): Promise<{ ours: OursValidator; peers: Peers }> => {
    instance++;
    const ty = (await typiaValidators(typiaRoots, defs as never, instance))[body.operationId]!;
    return { ours: await privateOurs(body.exportName, instance), peers: buildPeers(model, body.operationId, ajvFast, ajvAll, ty) };
  };

  const groups: Array<{ name: string; subjects: Record<Impl, Subject<unknown>> }> = [];
  const agreement: string[] = [];
  for (const body of bodies) {
    const peers = buildPeers(model, body.operationId, ajvFast, ajvAll, typia[body.operationId]!);
    agreement.push(checkAgreement(body, peers));
    console.log(`  ${agreement.at(-1)}`);
    for (const [validity, input] of [
      ['valid', body.valid],
      ['invalid', body.invalid],
    ] as const) {
      // Locals, so that every subject's loop reaches its function the same way.
      const forIs = await privateSubjects(body);
      const oursIs = forIs.ours;
      const { ajvIs, tb: tbIs, typia: typiaIs } = forIs.peers;
      groups.push({
        name: `validators: ${body.label} ${validity} (is)`,
        subjects: {
          ours: { input, fn: (x) => (oursIs.is(x) ? 1 : 0) },
          ajv: { input, fn: (x) => (ajvIs(x) ? 1 : 0) },
          typebox: { input, fn: (x) => (tbIs.Check(x) ? 1 : 0) },
          typia: { input, fn: (x) => (typiaIs.is(x) ? 1 : 0) },
        },
      });
      const { ours, peers: forAll } = await privateSubjects(body);
      const { ajvAll: ajvA, tb, typia: ty } = forAll;
      groups.push({
        name: `validators: ${body.label} ${validity} (all errors)`,
        subjects: {
          ours: {
            input,
            fn: (x) => {
              const r = ours.validate(x);
              return r.ok ? 0 : r.errors.length;
            },
          },
          ajv: { input, fn: (x) => (ajvA(x) ? 0 : ajvA.errors!.length) },
          typebox: { input, fn: (x) => (tb.Check(x) ? 0 : [...tb.Errors(x)].length) },
          typia: {
            input,
            fn: (x) => {
              const r = ty.validate(x);
              return r.success ? 0 : r.errors!.length;
            },
          },
        },
      });
    }
  }

  // BENCH_FILTER: only the cases whose name contains this text (e.g. `invalid (all errors)`).
  const filter = process.env.BENCH_FILTER;
  if (filter) groups.splice(0, groups.length, ...groups.filter((g) => g.name.includes(filter)));
  // BENCH_CLOCK=cpu: time with the process's CPU time instead of wall time (for a busy machine).
  const clock = process.env.BENCH_CLOCK === 'cpu' ? cpuClock : wallClock;
  const stats = measureInterleaved(groups.map((g) => g.subjects), options.smoke ? SMOKE_MEASURE : measureOptions(), clock);
  const rows: Row[] = [];
  const round = (n: number) => Math.round(n);
  const row = (name: string, ours: Stats, peer: Stats, peerName: string): Row => ({
    name,
    unit: 'ops/s',
    ours: round(ours.median),
    peer: round(peer.median),
    peer_name: peerName,
    ratio: Math.round((ours.median / peer.median) * 100) / 100,
    ours_min: round(ours.min),
    ours_max: round(ours.max),
    peer_min: round(peer.min),
    peer_max: round(peer.max),
  });
  const targets: Target[] = [];
  groups.forEach((g, i) => {
    const s = stats[i]!;
    rows.push(row(g.name, s.ours, s.ajv, ajvName));
    rows.push(row(g.name, s.ours, s.typebox, tbName));
    rows.push(row(g.name, s.ours, s.typia, typiaName));
    const peers: [string, Stats][] = [
      [ajvName, s.ajv],
      [tbName, s.typebox],
      [typiaName, s.typia],
    ];
    const [fastestName, fastest] = peers.reduce((a, b) => (b[1].median > a[1].median ? b : a));
    const ratio = s.ours.median / fastest.median;
    targets.push({ text: `${g.name.replace(/^validators: /, '')}: at least ${GOAL}x the fastest peer`, met: ratio >= GOAL, detail: `${ratio.toFixed(2)}x ${fastestName} (${Math.round(s.ours.median).toLocaleString('en-US')} vs ${Math.round(fastest.median).toLocaleString('en-US')} ops/s)` });
  });
  const clockNote = clock === cpuClock ? 'Timed on the CPU time of the bench process (BENCH_CLOCK=cpu), not wall time: steadier on a busy machine.' : 'Timed on wall time.';
  return { rows, targets, notes: ['', clockNote, '', 'Agreement on validity, checked before timing:', '', ...agreement.map((a) => `- ${a}`)] };
}
