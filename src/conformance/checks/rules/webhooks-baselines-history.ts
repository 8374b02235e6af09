// Rule baseline-history (getBaselineHistory): the estimates over time, one item per bucket holding
// observations. Seed: "a bucket width (default `4 hours`) and an IANA timezone (default UTC)", items
// bucket_time, baseline_mean, baseline_sigma, observation_count; the rest is docs/sandbox.md "EWMA baselines".
import { expectError, expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check, CheckContext } from '../context.js';
import { close, completeRuns, createBaseline, ewmaSteps, isRuleOperation, needControl, unusedMetricId, type BaselineRef, type Estimate } from './webhooks-baselines-support.js';

const RULE = 'baseline-history';

interface Bucket {
  /** The bucket's start, as an instant, and the zone offset bucket_time must carry (`Z` for UTC). */
  start: string;
  offset: string;
  estimate: Estimate;
  count: number;
}

/** A baseline fed with one run per (time, value), in that order. */
async function history(ctx: CheckContext, runs: [string, number][]): Promise<{ baseline: BaselineRef; steps: Estimate[] }> {
  const control = needControl(ctx, 'complete runs at chosen times');
  const metric = (await ctx.world.create('metric')).id;
  const baseline = await createBaseline(ctx, metric);
  await completeRuns(control, metric, runs.map(([, v]) => v), runs.map(([t]) => t));
  return { baseline, steps: ewmaSteps(runs.map(([, v]) => v)) };
}

async function fetchHistory(ctx: CheckContext, baseline: BaselineRef, query: Record<string, string>): Promise<Record<string, unknown>[]> {
  const answer = await send(ctx.target, ctx.route, { path: baseline.path, query });
  expectSuccess(answer, ctx.route, `history with ${JSON.stringify(query)}`);
  const items = (answer.body as Record<string, unknown> | undefined)?.history;
  if (!Array.isArray(items)) fail(`history with ${JSON.stringify(query)}: no history list in ${answer.text.slice(0, 200)}`);
  return items as Record<string, unknown>[];
}

function expectBuckets(items: Record<string, unknown>[], expected: Bucket[], what: string): void {
  const show = (): string => `expected ${JSON.stringify(expected.map((b) => ({ start: b.start, offset: b.offset, ...b.estimate, count: b.count })))}, got ${JSON.stringify(items)}`;
  if (items.length !== expected.length) fail(`${what}: ${expected.length} buckets ${show()}`);
  expected.forEach((b, i) => {
    const item = items[i]!;
    const time = String(item.bucket_time);
    if (Date.parse(time) !== Date.parse(b.start) || !time.endsWith(b.offset)) fail(`${what}: bucket ${i + 1} should start at ${b.start} written with offset ${b.offset}: ${show()}`);
    if (!close(item.baseline_mean, b.estimate.mean) || !close(item.baseline_sigma, b.estimate.sigma) || item.observation_count !== b.count) fail(`${what}: bucket ${i + 1} estimate or count: ${show()}`);
  });
}

// Four runs: two in the 00:00-04:00 UTC bucket of 2025-12-01, one at 05:00, one the next day at 10:00.
const DAY_RUNS: [string, number][] = [
  ['2025-12-01T01:00:00.000Z', 10],
  ['2025-12-01T02:30:00.000Z', 14],
  ['2025-12-01T05:00:00.000Z', 9],
  ['2025-12-02T10:00:00.000Z', 20],
];

export const defaultBuckets: Check = {
  name: `rule ${RULE}: by default 4-hour UTC buckets, oldest first, each with the estimate after its last run and its run count; empty buckets left out`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'custom', RULE),
  async run(ctx) {
    const { baseline, steps } = await history(ctx, DAY_RUNS);
    const expected: Bucket[] = [
      { start: '2025-12-01T00:00:00Z', offset: 'Z', estimate: steps[1]!, count: 2 },
      { start: '2025-12-01T04:00:00Z', offset: 'Z', estimate: steps[2]!, count: 1 },
      { start: '2025-12-02T08:00:00Z', offset: 'Z', estimate: steps[3]!, count: 1 },
    ];
    expectBuckets(await fetchHistory(ctx, baseline, {}), expected, 'without parameters (4 hours, UTC)');
    expectBuckets(await fetchHistory(ctx, baseline, { bucket_interval: '240 minutes', timezone: 'UTC' }), expected, 'with 240 minutes in UTC');
  },
};

export const dateRange: Check = {
  name: `rule ${RULE}: start_date and end_date keep the runs completed between them, both bounds included, each bound alone too`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'custom', RULE),
  async run(ctx) {
    const { baseline, steps } = await history(ctx, DAY_RUNS);
    const at = DAY_RUNS.map(([time]) => time);
    // The four default buckets' items, given the runs each keeps (sandbox's choice, docs/sandbox.md: the
    // estimates stay those after each run; only the items are filtered).
    const first = (count: number, last: number): Bucket => ({ start: '2025-12-01T00:00:00Z', offset: 'Z', estimate: steps[last]!, count });
    const second: Bucket = { start: '2025-12-01T04:00:00Z', offset: 'Z', estimate: steps[2]!, count: 1 };
    const third: Bucket = { start: '2025-12-02T08:00:00Z', offset: 'Z', estimate: steps[3]!, count: 1 };
    const cases: [Record<string, string>, Bucket[]][] = [
      [{ start_date: at[1]!, end_date: at[2]! }, [first(1, 1), second]],
      [{ start_date: at[2]! }, [second, third]],
      [{ end_date: at[0]! }, [first(1, 0)]],
      [{ start_date: at[3]!, end_date: at[3]! }, [third]],
    ];
    for (const [query, expected] of cases) expectBuckets(await fetchHistory(ctx, baseline, query), expected, `with ${JSON.stringify(query)}`);
  },
};

export const zoneAndDst: Check = {
  name: `rule ${RULE}: 1-day buckets start at local midnight of the IANA zone, across a DST change, with the zone's offset`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'custom', RULE),
  async run(ctx) {
    // Europe/Berlin is UTC+01:00 until 2026-03-29 01:00 UTC, then UTC+02:00 (EU summer time).
    const { baseline, steps } = await history(ctx, [
      ['2026-03-28T22:30:00.000Z', 4], // 23:30 on the 28th, local
      ['2026-03-28T23:30:00.000Z', 6], // 00:30 on the 29th
      ['2026-03-29T21:30:00.000Z', 5], // 23:30 on the 29th (summer time)
      ['2026-03-29T22:30:00.000Z', 9], // 00:30 on the 30th
    ]);
    expectBuckets(
      await fetchHistory(ctx, baseline, { bucket_interval: '1 day', timezone: 'Europe/Berlin' }),
      [
        { start: '2026-03-28T00:00:00+01:00', offset: '+01:00', estimate: steps[0]!, count: 1 },
        { start: '2026-03-29T00:00:00+01:00', offset: '+01:00', estimate: steps[2]!, count: 2 },
        { start: '2026-03-30T00:00:00+02:00', offset: '+02:00', estimate: steps[3]!, count: 1 },
      ],
      '1 day in Europe/Berlin',
    );
  },
};

export const weekBuckets: Check = {
  name: `rule ${RULE}: week buckets start on Monday (sandbox's choice)`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'custom', RULE),
  async run(ctx) {
    // 2025-12-01 is a Monday.
    const { baseline, steps } = await history(ctx, [
      ['2025-12-03T12:00:00.000Z', 3], // Wednesday
      ['2025-12-07T23:00:00.000Z', 5], // Sunday
      ['2025-12-08T00:30:00.000Z', 8], // Monday
    ]);
    expectBuckets(
      await fetchHistory(ctx, baseline, { bucket_interval: '1 week' }),
      [
        { start: '2025-12-01T00:00:00Z', offset: 'Z', estimate: steps[1]!, count: 2 },
        { start: '2025-12-08T00:00:00Z', offset: 'Z', estimate: steps[2]!, count: 1 },
      ],
      '1 week in UTC',
    );
  },
};

export const fallBackOrder: Check = {
  name: `rule ${RULE}: items stay oldest bucket first when a later run falls in an earlier bucket (in a fall-back, a bucket that began before the repeated hour holds the second pass up to its wall-clock end)`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'custom', RULE),
  async run(ctx) {
    // Europe/Berlin falls back on 2025-10-26 at 01:00 UTC (03:00 +02:00 becomes 02:00 +01:00). 45-minute buckets
    // count from local 1970-01-01 00:00, so local 01:30 and 02:15 are bucket starts: 02:40 +02:00 falls in the
    // 02:15 +02:00 bucket; 02:00 +01:00, five minutes later, in the 01:30 +02:00 bucket, which began before the
    // repeated hour and runs to 02:15 on the wall clock (docs/sandbox.md "EWMA baselines", History).
    const { baseline, steps } = await history(ctx, [
      ['2025-10-26T00:40:00.000Z', 4],
      ['2025-10-26T01:00:00.000Z', 6],
    ]);
    expectBuckets(
      await fetchHistory(ctx, baseline, { bucket_interval: '45 minutes', timezone: 'Europe/Berlin' }),
      [
        { start: '2025-10-26T01:30:00+02:00', offset: '+02:00', estimate: steps[1]!, count: 1 },
        { start: '2025-10-26T02:15:00+02:00', offset: '+02:00', estimate: steps[0]!, count: 1 },
      ],
      '45 minutes in Europe/Berlin across the fall-back',
    );
  },
};

/** A well-formed ULID no baseline has (the time part is 10889 AD). */
const UNKNOWN_ULID = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';

export const badParameters: Check = {
  name: `rule ${RULE}: a bad bucket_interval, a timezone that is no IANA name, a date that is no date-time or a leap second, or start_date after end_date is 400 on that parameter; an unknown baseline or another metric's path is 404`,
  applies: (route, suite) => isRuleOperation(route, suite, 'baseline', 'custom', RULE),
  async run(ctx) {
    const metric = (await ctx.world.create('metric')).id;
    const baseline = await createBaseline(ctx, metric);
    const refused = async (query: Record<string, string>, field: string): Promise<void> => {
      expectError(await send(ctx.target, ctx.route, { path: baseline.path, query }), 400, 'INVALID_ARGUMENT', field, `history with ${JSON.stringify(query)}`);
    };
    // Seed: history errors include 400; docs/sandbox.md: `<count> <unit>` (count 1-9999) and an IANA zone name.
    for (const interval of ['0 hours', '4 fortnights', '10000 minutes']) await refused({ bucket_interval: interval }, 'bucket_interval');
    for (const zone of ['Mars/Olympus_Mons', '+01:00']) await refused({ timezone: zone }, 'timezone');
    await refused({ start_date: '2025-12-02T00:00:00Z', end_date: '2025-12-01T00:00:00Z' }, 'start_date');
    await refused({ start_date: 'yesterday' }, 'start_date');
    await refused({ end_date: '2025-13-01T00:00:00Z' }, 'end_date');
    // Sandbox decision (docs/sandbox.md, date bounds): a leap second passes the date-time validator but names no
    // instant: 400 on its parameter.
    await refused({ start_date: '2016-12-31T23:59:60Z' }, 'start_date');
    await refused({ end_date: '2016-12-31T23:59:60Z' }, 'end_date');
    const another = (await ctx.world.create('metric')).id;
    expectError(await send(ctx.target, ctx.route, { path: { metric_id: another, baseline_id: baseline.path.baseline_id } }), 404, 'NOT_FOUND', 'baseline_id', "history of a baseline under another metric's path");
    expectError(await send(ctx.target, ctx.route, { path: { metric_id: unusedMetricId(), baseline_id: baseline.path.baseline_id } }), 404, 'NOT_FOUND', 'metric_id', 'history under an unknown metric');
    expectError(await send(ctx.target, ctx.route, { path: { metric_id: metric, baseline_id: UNKNOWN_ULID } }), 404, 'NOT_FOUND', 'baseline_id', 'history of an unknown baseline');
  },
};

export const historyChecks: Check[] = [defaultBuckets, dateRange, zoneAndDst, fallBackOrder, weekBuckets, badParameters];
