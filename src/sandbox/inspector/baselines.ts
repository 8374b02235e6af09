// A baseline as the inspector plots it: the EWMA estimates per history bucket (the bucketing getBaselineHistory
// uses, so the plot and the API agree) and the observations behind them.
import type { Runtime } from '../engine/context.js';
import { present } from '../engine/records.js';
import { invalid, notFound } from '../errors.js';
import { bucketHistory } from '../rules/baseline-history.js';
import { observationsOf } from '../rules/events/ewma.js';
import { canonicalTimeZone, parseInterval } from '../rules/events/time-buckets.js';
import type { Json } from '../storage/store.js';
import { canRead, seesOrganization, type Session } from './auth.js';

export interface BaselinePlot {
  baseline: Json;
  bucket_interval: string;
  timezone: string;
  buckets: { start: number; bucket_time: string; mean: number; sigma: number; count: number }[];
  observations: { at: string; run_id: string; value: number; mean: number; sigma: number; anomaly: boolean }[];
}

export function baselinePlot(runtime: Runtime, session: Session, id: string, bucketInterval: string | null, timezone: string | null): BaselinePlot {
  const interval = parseInterval(bucketInterval ?? '4 hours');
  if (!interval) throw invalid('bucket_interval', 'must be `<count> <unit>`, count 1-9999, unit minute, hour, day or week (for example `4 hours`)');
  const zone = canonicalTimeZone(timezone ?? 'UTC');
  if (!zone) throw invalid('timezone', 'must be an IANA time zone name, for example `Europe/Berlin` or `UTC`');
  const record = canRead(runtime, session, 'baseline') ? runtime.store.get('baseline', id) : undefined;
  if (!record || !seesOrganization(session, record.org)) throw notFound('baseline_id', 'baseline');
  const observations = observationsOf(record.data);
  return {
    baseline: present(runtime.resource('baseline'), record),
    bucket_interval: bucketInterval ?? '4 hours',
    timezone: zone,
    buckets: bucketHistory(observations, interval, zone),
    observations: observations.map((o) => ({ at: o.at, run_id: o.run_id, value: o.value, mean: o.mean, sigma: o.sigma, anomaly: o.anomaly })),
  };
}
