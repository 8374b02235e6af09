// baseline-history (getBaselineHistory): the baseline's estimates over time, one point per time bucket that
// holds observations, oldest first.
//
// Decisions (the seed gives only "a bucket width (default `4 hours`) and an IANA timezone (default UTC)"):
// - bucket_interval: `<count> <unit>`, count 1-9999, unit minute|hour|day|week, singular or plural
//   (`30 minutes`, `4 hours`, `1 day`, `2 weeks`); anything else is 400 on bucket_interval.
// - timezone: an IANA zone name Intl knows (`Europe/Berlin`, `UTC`); offsets such as `+01:00` and unknown names
//   are 400 on timezone.
// - Buckets are aligned to the zone's wall clock: the local time is floored to a multiple of the interval
//   counted from local 1970-01-01 00:00 (weeks from Monday 1970-01-05), so `4 hours` buckets start at local
//   00:00, 04:00, ... and `1 day` at local midnight, across DST changes.
// - bucket_time is the bucket's start, written with the zone's offset (`2026-03-01T04:00:00+01:00`, `Z` for 0).
// - baseline_mean / baseline_sigma are the estimates after the bucket's last observation; observation_count is
//   the number of observations (runs) that fell in the bucket. Buckets without observations are left out.
// - start_date / end_date keep only observations completed at or after start_date and at or before end_date;
//   start_date after end_date is 400 on start_date.
import { invalid, notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord } from '../engine/records.js';
import { queryOf } from '../engine/request-parts.js';
import { observationsOf, type Observation } from './events/ewma.js';
import { bucketStart, canonicalTimeZone, formatInZone, parseInterval, type Interval } from './events/time-buckets.js';
import { pathMetric } from './baseline-sigma-bands.js';

/**
 * The instant of a start_date / end_date. The validators hold both to RFC 3339 date-times; one Date cannot
 * place (a leap second, 23:59:60) is 400 on the parameter.
 */
function instant(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid(field, 'must be an RFC 3339 date-time');
  return ms;
}

export interface HistoryBucket {
  /** The bucket's start, ms since the epoch, and written with the zone's offset. */
  start: number;
  bucket_time: string;
  /** The estimates after the bucket's last observation, and how many observations fell in it. */
  mean: number;
  sigma: number;
  count: number;
}

/** The observations completed in [start, end], bucketed on the zone's wall clock, oldest bucket first; empty buckets left out. */
export function bucketHistory(observations: readonly Observation[], interval: Interval, zone: string, start = -Infinity, end = Infinity): HistoryBucket[] {
  // Observations are kept in completion order with valid completion times (update-baselines); around a DST
  // change a later observation can still fall in an earlier bucket, hence the sort.
  const buckets = new Map<number, { mean: number; sigma: number; count: number }>();
  for (const o of observations) {
    const at = Date.parse(o.at);
    if (at < start || at > end) continue;
    const key = bucketStart(at, interval, zone);
    const b = buckets.get(key);
    if (b) {
      b.mean = o.mean;
      b.sigma = o.sigma;
      b.count += 1;
    } else buckets.set(key, { mean: o.mean, sigma: o.sigma, count: 1 });
  }
  return [...buckets.entries()].sort((a, b) => a[0] - b[0]).map(([key, b]) => ({ start: key, bucket_time: formatInZone(key, zone), ...b }));
}

export const baselineHistory: Rule = {
  handle(ctx) {
    // The validators hold bucket_interval to the pattern parseInterval reads (INTERVAL_PATTERN) and timezone
    // to a string.
    const query = queryOf(ctx, 'getBaselineHistory');
    const interval = parseInterval(query.bucket_interval ?? '4 hours')!;
    const zone = canonicalTimeZone(query.timezone ?? 'UTC');
    if (!zone) throw invalid('timezone', 'must be an IANA time zone name, for example `Europe/Berlin` or `UTC`');
    const start = instant(query.start_date, 'start_date') ?? -Infinity;
    const end = instant(query.end_date, 'end_date') ?? Infinity;
    if (start > end) throw invalid('start_date', 'must not be after end_date');

    pathMetric(ctx);
    const baseline = findRecord(ctx, 'baseline', ctx.path.baseline_id, { field: 'baseline_id' });
    if (baseline.data.metric_id !== ctx.path.metric_id) throw notFound('baseline_id', 'baseline');

    const history = bucketHistory(observationsOf(baseline.data), interval, zone, start, end).map((b) => ({
      bucket_time: b.bucket_time,
      baseline_mean: b.mean,
      baseline_sigma: b.sigma,
      observation_count: b.count,
    }));
    return { body: { history } };
  },
};
