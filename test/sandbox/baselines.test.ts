// Metric baselines (update-baselines, baseline-sigma-bands, baseline-history): creation without statistics,
// EWMA estimates (alpha 0.3) from completed runs, which runs feed which baseline, sigma bands for the
// requested levels, and history buckets in a time zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../generated/client/index.js';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

let seq = 0;
async function org(): Promise<{ id: string; key: string; client: Client }> {
  const o = await h.control.createOrganization(`baselines ${++seq}`);
  return { id: o.organization.id, key: o.api_key.key, client: h.clientFor(o.api_key.key) };
}

async function metric(orgId: string, name = 'response quality'): Promise<string> {
  const [m] = await h.control.loadFixtures(orgId, [{ kind: 'metric', data: { metric_name: name, description: 'd', metric_type: 'METRIC_LLM_BINARY' } }]);
  return m!.id;
}

/** The documented EWMA: first x initialises (mean x, variance 0); then mean += a*d, var = (1-a)*(var + a*d^2). */
function ewma(values: number[], alpha = 0.3): { mean: number; sigma: number } {
  let mean = 0;
  let variance = 0;
  values.forEach((x, i) => {
    if (i === 0) {
      mean = x;
      variance = 0;
      return;
    }
    const d = x - mean;
    mean += alpha * d;
    variance = (1 - alpha) * (variance + alpha * d * d);
  });
  return { mean, sigma: Math.sqrt(variance) };
}

async function rawGet(key: string, path: string): Promise<{ status: number; body: { error?: { details: { field: string | null }[] } } & Record<string, unknown> }> {
  const res = await h.sandbox.fetch(new Request(`http://sandbox.test/v1${path}`, { headers: { 'x-api-key': key } }));
  return { status: res.status, body: (await res.json()) as never };
}

describe('baselines', () => {
  it('a new baseline has no statistics yet: zeros, observation_count 0, sigma_bands null', async () => {
    const o = await org();
    const m = await metric(o.id, 'csat');
    const b = await o.client.baselines.createBaseline(m, { sigma_threshold: 3, direction: 'ABOVE' });
    expect(b).toMatchObject({
      metric_id: m,
      agent_id: null,
      test_set_id: null,
      persona_id: null,
      display_name: 'csat',
      status: 'ACTIVE',
      detection_method: 'EWMA',
      sigma_threshold: 3,
      direction: 'ABOVE',
      baseline_float: 0,
      baseline_sigma: 0,
      observation_count: 0,
      sigma_bands: null,
      last_processed_run_completed_at: null,
    });
    const again = await o.client.baselines.getBaseline(m, b.ulid);
    expect(again.sigma_bands).toBeNull();
    const list = await rawGet(o.key, `/metrics/${m}/baselines`);
    expect(list.status).toBe(200);
    expect((list.body.baselines as { ulid: string; sigma_bands: unknown }[]).map((x) => [x.ulid, x.sigma_bands])).toEqual([[b.ulid, null]]);
  });

  it('404 on metric_id for an unknown metric, 404 on baseline_id for a baseline of another metric', async () => {
    const o = await org();
    const m1 = await metric(o.id);
    const m2 = await metric(o.id);
    const b = await o.client.baselines.createBaseline(m1, {});
    const missing = await failure(o.client.baselines.createBaseline('Zz9Zz9Zz9Zz9Zz9Zz9Zz9Z', {}));
    expect([missing.status, missing.details[0]?.field]).toEqual([404, 'metric_id']);
    const crossed = await failure(o.client.baselines.getBaseline(m2, b.ulid));
    expect([crossed.status, crossed.details[0]?.field]).toEqual([404, 'baseline_id']);
    const history = await failure(o.client.baselines.getBaselineHistory(m2, b.ulid));
    expect(history.status).toBe(404);
  });

  it('folds one observation per run (the mean of its results) with EWMA alpha 0.3', async () => {
    const o = await org();
    const m = await metric(o.id);
    const b = await o.client.baselines.createBaseline(m, {});
    const runs: [number[], string][] = [
      [[10], '2026-05-01T00:00:00.000Z'],
      [[11, 13], '2026-05-01T01:00:00.000Z'], // x = 12
      [[8], '2026-05-01T02:00:00.000Z'],
      [[11], '2026-05-01T03:00:00.000Z'],
    ];
    for (const [values, completed_at] of runs) await h.control.completeRun(o.id, { metric_values: { [m]: values }, completed_at });
    const got = await o.client.baselines.getBaseline(m, b.ulid);
    const expected = ewma([10, 12, 8, 11]);
    // mean: 10 -> 10.6 -> 9.82 -> 10.174; variance: 0 -> 0.84 -> 2.0076 -> 1.697724
    expect(expected.mean).toBeCloseTo(10.174, 12);
    expect(expected.sigma).toBeCloseTo(Math.sqrt(1.697724), 12);
    expect(got.baseline_float).toBeCloseTo(expected.mean, 12);
    expect(got.baseline_sigma).toBeCloseTo(expected.sigma, 12);
    expect(got.observation_count).toBe(4);
    expect(got.last_processed_run_completed_at).toBe('2026-05-01T03:00:00.000Z');
  });

  it('orders observations by completion time, whatever order runs arrive in', async () => {
    const o = await org();
    const m = await metric(o.id);
    const b = await o.client.baselines.createBaseline(m, {});
    await h.control.completeRun(o.id, { metric_values: { [m]: 8 }, completed_at: '2026-05-01T02:00:00Z' });
    await h.control.completeRun(o.id, { metric_values: { [m]: 10 }, completed_at: '2026-05-01T00:00:00Z' });
    await h.control.completeRun(o.id, { metric_values: { [m]: 12 }, completed_at: '2026-05-01T01:00:00Z' });
    const got = await o.client.baselines.getBaseline(m, b.ulid);
    expect(got.baseline_float).toBeCloseTo(ewma([10, 12, 8]).mean, 12);
    expect(got.baseline_sigma).toBeCloseTo(ewma([10, 12, 8]).sigma, 12);
    expect(got.last_processed_run_completed_at).toBe('2026-05-01T02:00:00.000Z');
  });

  it('feeds only ACTIVE baselines of the run metric, within their agent scope', async () => {
    const o = await org();
    const m = await metric(o.id);
    const other = await metric(o.id);
    const agent = 'AgentAAAAAAAAAAAAAAAAA';
    const orgWide = await o.client.baselines.createBaseline(m, {});
    const forAgent = await o.client.baselines.createBaseline(m, { agent_id: agent });
    const standby = await o.client.baselines.createBaseline(m, { status: 'STANDBY' });
    const otherMetric = await o.client.baselines.createBaseline(other, {});
    await h.control.completeRun(o.id, { agent_id: agent, metric_values: { [m]: 5 } });
    await h.control.completeRun(o.id, { agent_id: 'AgentBBBBBBBBBBBBBBBBB', metric_values: { [m]: 7 } });
    await h.control.completeRun(o.id, { metric_values: { [m]: 9 } });
    const count = async (metricId: string, id: string) => (await o.client.baselines.getBaseline(metricId, id)).observation_count;
    expect(await count(m, orgWide.ulid)).toBe(3);
    expect(await count(m, forAgent.ulid)).toBe(1);
    expect((await o.client.baselines.getBaseline(m, forAgent.ulid)).baseline_float).toBe(5);
    expect(await count(m, standby.ulid)).toBe(0);
    expect(await count(other, otherMetric.ulid)).toBe(0);
  });

  describe('sigma_bands', () => {
    it('gives upper/lower bands at mean +- n sigma for sigma_levels (default 1,2)', async () => {
      const o = await org();
      const m = await metric(o.id);
      const b = await o.client.baselines.createBaseline(m, { direction: 'ABOVE' });
      await h.control.completeRun(o.id, { metric_values: { [m]: 10 }, completed_at: '2026-05-01T00:00:00Z' });
      await h.control.completeRun(o.id, { metric_values: { [m]: 20 }, completed_at: '2026-05-01T01:00:00Z' });
      // mean 13, variance 0.7 * 0.3 * 100 = 21
      const sigma = Math.sqrt(21);
      const dflt = await o.client.baselines.getBaseline(m, b.ulid);
      expect(Object.keys(dflt.sigma_bands!).sort()).toEqual(['lower_1sigma', 'lower_2sigma', 'upper_1sigma', 'upper_2sigma']);
      expect(dflt.sigma_bands!.upper_1sigma).toBeCloseTo(13 + sigma, 12);
      expect(dflt.sigma_bands!.lower_1sigma).toBeCloseTo(13 - sigma, 12);
      expect(dflt.sigma_bands!.upper_2sigma).toBeCloseTo(13 + 2 * sigma, 12);
      expect(dflt.sigma_bands!.lower_2sigma).toBeCloseTo(13 - 2 * sigma, 12);
      const custom = await o.client.baselines.getBaseline(m, b.ulid, { query: { sigma_levels: [1, 2.5] } });
      expect(Object.keys(custom.sigma_bands!).sort()).toEqual(['lower_1sigma', 'lower_2.5sigma', 'upper_1sigma', 'upper_2.5sigma']);
      expect(custom.sigma_bands!['upper_2.5sigma']).toBeCloseTo(13 + 2.5 * sigma, 12);
      const listed = await rawGet(o.key, `/metrics/${m}/baselines?sigma_levels=3`);
      expect((listed.body.baselines as { sigma_bands: Record<string, number> }[])[0]!.sigma_bands).toEqual({
        upper_3sigma: 13 + 3 * sigma,
        lower_3sigma: 13 - 3 * sigma,
      });
    });

    it.each(['0', '-1', 'abc', '1,,x', '1e-7'])('refuses sigma_levels=%s with 400 on sigma_levels', async (levels) => {
      const o = await org();
      const m = await metric(o.id);
      const b = await o.client.baselines.createBaseline(m, {});
      const res = await rawGet(o.key, `/metrics/${m}/baselines/${b.ulid}?sigma_levels=${encodeURIComponent(levels)}`);
      expect(res.status).toBe(400);
      expect(res.body.error!.details.map((d) => d.field?.replace(/\[\d+\]$/, ''))).toContain('sigma_levels');
    });
  });

  describe('history', () => {
    async function seeded(times: string[], values: number[]) {
      const o = await org();
      const m = await metric(o.id);
      const b = await o.client.baselines.createBaseline(m, {});
      for (const [i, completed_at] of times.entries()) await h.control.completeRun(o.id, { metric_values: { [m]: values[i]! }, completed_at });
      return { o, m, b };
    }

    it('buckets observations by 4 hours in UTC by default, with the estimates after each bucket', async () => {
      const values = [10, 12, 8, 11];
      const { o, m, b } = await seeded(['2026-05-01T00:30:00Z', '2026-05-01T03:59:59Z', '2026-05-01T04:00:00Z', '2026-05-01T09:15:00Z'], values);
      const { history } = await o.client.baselines.getBaselineHistory(m, b.ulid);
      expect(history.map((p) => [p.bucket_time, p.observation_count])).toEqual([
        ['2026-05-01T00:00:00Z', 2],
        ['2026-05-01T04:00:00Z', 1],
        ['2026-05-01T08:00:00Z', 1],
      ]);
      const after = [2, 3, 4].map((n) => ewma(values.slice(0, n)));
      history.forEach((p, i) => {
        expect(p.baseline_mean).toBeCloseTo(after[i]!.mean, 12);
        expect(p.baseline_sigma).toBeCloseTo(after[i]!.sigma, 12);
      });
    });

    it('aligns buckets to the wall clock of the IANA timezone', async () => {
      const { o, m, b } = await seeded(['2026-05-01T17:00:00Z', '2026-05-01T19:00:00Z', '2026-05-02T10:00:00Z'], [1, 2, 3]);
      // Asia/Kolkata is UTC+05:30: 17:00Z is 22:30 on May 1, 19:00Z is 00:30 on May 2.
      const kolkata = await o.client.baselines.getBaselineHistory(m, b.ulid, { query: { bucket_interval: '1 day', timezone: 'Asia/Kolkata' } });
      expect(kolkata.history.map((p) => [p.bucket_time, p.observation_count])).toEqual([
        ['2026-05-01T00:00:00+05:30', 1],
        ['2026-05-02T00:00:00+05:30', 2],
      ]);
      const utc = await o.client.baselines.getBaselineHistory(m, b.ulid, { query: { bucket_interval: '1 day' } });
      expect(utc.history.map((p) => [p.bucket_time, p.observation_count])).toEqual([
        ['2026-05-01T00:00:00Z', 2],
        ['2026-05-02T00:00:00Z', 1],
      ]);
      // New York in May is UTC-4: 17:00Z and 19:00Z are 13:00 and 15:00 local (bucket 12:00-16:00), 10:00Z next day is 06:00.
      const ny = await o.client.baselines.getBaselineHistory(m, b.ulid, { query: { bucket_interval: '4 hours', timezone: 'America/New_York' } });
      expect(ny.history.map((p) => [p.bucket_time, p.observation_count])).toEqual([
        ['2026-05-01T12:00:00-04:00', 2],
        ['2026-05-02T04:00:00-04:00', 1],
      ]);
    });

    it('keeps day buckets on local midnight across a DST change', async () => {
      // Europe/Berlin switches to summer time on 2026-03-29: 23:30Z on Mar 28 is 00:30 CET, 22:30Z on Mar 29 is 00:30 CEST.
      const { o, m, b } = await seeded(['2026-03-28T23:30:00Z', '2026-03-29T22:30:00Z'], [1, 2]);
      const berlin = await o.client.baselines.getBaselineHistory(m, b.ulid, { query: { bucket_interval: '1 day', timezone: 'Europe/Berlin' } });
      expect(berlin.history.map((p) => p.bucket_time)).toEqual(['2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00']);
      expect(berlin.history.map((p) => Date.parse(p.bucket_time))).toEqual([Date.parse('2026-03-28T23:00:00Z'), Date.parse('2026-03-29T22:00:00Z')]);
    });

    it('accepts minutes and weeks; start_date and end_date leave out observations outside them', async () => {
      const { o, m, b } = await seeded(['2026-05-04T10:05:00Z', '2026-05-04T10:40:00Z', '2026-05-06T10:00:00Z', '2026-05-12T00:00:00Z'], [1, 2, 3, 4]);
      const halfHours = await o.client.baselines.getBaselineHistory(m, b.ulid, { query: { bucket_interval: '30 minutes' } });
      expect(halfHours.history.map((p) => p.bucket_time).slice(0, 2)).toEqual(['2026-05-04T10:00:00Z', '2026-05-04T10:30:00Z']);
      // 2026-05-04 is a Monday: weeks start on Monday.
      const weeks = await o.client.baselines.getBaselineHistory(m, b.ulid, { query: { bucket_interval: '1 week' } });
      expect(weeks.history.map((p) => [p.bucket_time, p.observation_count])).toEqual([
        ['2026-05-04T00:00:00Z', 3],
        ['2026-05-11T00:00:00Z', 1],
      ]);
      const ranged = await o.client.baselines.getBaselineHistory(m, b.ulid, {
        query: { bucket_interval: '1 day', start_date: '2026-05-04T10:30:00Z', end_date: '2026-05-06T10:00:00Z' },
      });
      expect(ranged.history.map((p) => [p.bucket_time, p.observation_count])).toEqual([
        ['2026-05-04T00:00:00Z', 1],
        ['2026-05-06T00:00:00Z', 1],
      ]);
    });

    it.each([
      ['bucket_interval', '4 fortnights'],
      ['bucket_interval', '0 hours'],
      ['bucket_interval', 'hours'],
      ['timezone', 'Mars/Olympus_Mons'],
      ['timezone', '+01:00'],
    ])('refuses %s=%s with 400 on that field', async (field, value) => {
      const o = await org();
      const m = await metric(o.id);
      const b = await o.client.baselines.createBaseline(m, {});
      const res = await rawGet(o.key, `/metrics/${m}/baselines/${b.ulid}/history?${field}=${encodeURIComponent(value)}`);
      expect(res.status).toBe(400);
      expect(res.body.error!.details.map((d) => d.field)).toContain(field);
    });

    it('is empty before the first observation', async () => {
      const o = await org();
      const m = await metric(o.id);
      const b = await o.client.baselines.createBaseline(m, {});
      expect((await o.client.baselines.getBaselineHistory(m, b.ulid)).history).toEqual([]);
    });
  });
});

describe('baseline update and delete (issue 15)', () => {
  it('PATCH changes display_name, sigma_threshold, direction and status, keeps the statistics and answers unwrapped', async () => {
    const o = await org();
    const metricId = await metric(o.id);
    const base = await o.client.baselines.createBaseline(metricId, { display_name: 'Before' });
    const updated = await o.client.baselines.updateBaseline(metricId, base.ulid, { display_name: 'After', sigma_threshold: 3, direction: 'ABOVE', status: 'STANDBY' });
    expect(updated).toMatchObject({ ulid: base.ulid, display_name: 'After', sigma_threshold: 3, direction: 'ABOVE', status: 'STANDBY', observation_count: 0 });
    const kept = await o.client.baselines.updateBaseline(metricId, base.ulid, { display_name: null, sigma_threshold: null });
    expect(kept).toMatchObject({ display_name: 'After', sigma_threshold: 3 });
    const bad = await failure(o.client.baselines.updateBaseline(metricId, base.ulid, { direction: 'UP' as 'ABOVE' }));
    expect(bad.status).toBe(400);
    expect(bad.details.map((d) => d.field)).toContain('direction');
  });

  it('DELETE answers 204, then the baseline is gone; another metric path and repeats are 404', async () => {
    const o = await org();
    const metricId = await metric(o.id);
    const otherMetric = await metric(o.id, 'other');
    const base = await o.client.baselines.createBaseline(metricId, {});
    expect((await failure(o.client.baselines.deleteBaseline(otherMetric, base.ulid))).status).toBe(404);
    expect((await failure(o.client.baselines.updateBaseline(otherMetric, base.ulid, { status: 'ARCHIVED' }))).status).toBe(404);
    expect(await o.client.baselines.deleteBaseline(metricId, base.ulid)).toBeUndefined();
    expect((await failure(o.client.baselines.getBaseline(metricId, base.ulid))).status).toBe(404);
    expect((await o.client.baselines.listBaselines(metricId)).baselines).toEqual([]);
    expect((await failure(o.client.baselines.deleteBaseline(metricId, base.ulid))).status).toBe(404);
  });
});
