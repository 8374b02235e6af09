// Baselines as plots: the EWMA mean with its 1 and 2 sigma bands over the history buckets (bucket width and
// time zone chosen here, bucketed by the server as getBaselineHistory does) and the observations behind them.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { getJson } from './api.js';
import { Badge, ErrorBox, go } from './components.js';
import { count, displayNumber } from './format.js';
import type { BaselinePlotData, OrganizationInfo, RecordSummary } from './types.js';

const INTERVALS = ['15 minutes', '1 hour', '4 hours', '1 day', '1 week'];
const ZONES = ['UTC', 'Europe/Berlin', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Australia/Sydney'];

export function BaselinesView({ org, route }: { org: OrganizationInfo; route: string[] }) {
  const [baselines, setBaselines] = useState<RecordSummary[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const selected = route[0];
  useEffect(() => {
    getJson<{ records: RecordSummary[] }>('records', { organization_id: org.id, kind: 'baseline' })
      .then((r) => setBaselines(r.records))
      .catch(setError);
  }, [org.id]);
  return html`
    <section class="split">
      <div class="pane list-pane">
        <${ErrorBox} error=${error} />
        <p class="count">${baselines === null ? 'Loading…' : count(baselines.length, 'baseline', 'baselines')}</p>
        <ul class="records" aria-label="Baselines">
          ${(baselines ?? []).map(
            (b) => html`<li key=${b.id}><a href=${`#/baselines/${encodeURIComponent(b.id)}`} aria-current=${b.id === selected ? 'true' : undefined}>
              <span class="label">${b.label}</span>${b.state ? html`<${Badge} tone="muted">${b.state}<//>` : null}</a></li>`,
          )}
        </ul>
      </div>
      <div class="pane detail-pane">${selected ? html`<${BaselinePlot} id=${selected} key=${selected} />` : baselines !== null && baselines.length === 0
            ? html`<p class="hint">No baselines yet. Create one through the API (<code>POST /v1/baselines</code>, <code>client.baselines.createBaseline(...)</code>); it learns from every completed run that computes its metric (the control plane completes runs: <code>POST /control/organizations/{id}/run-completions</code>), and its observations and bands are plotted here.</p>`
            : html`<p class="hint">Choose a baseline to plot it.</p>`}</div>
    </section>
  `;
}

function BaselinePlot({ id }: { id: string }) {
  const [interval, setInterval_] = useState('4 hours');
  const [zone, setZone] = useState('UTC');
  const [data, setData] = useState<BaselinePlotData | null>(null);
  const [error, setError] = useState<unknown>(null);
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    getJson<BaselinePlotData>(`baselines/${encodeURIComponent(id)}`, { bucket_interval: interval, timezone: zone })
      .then((d) => {
        setData(d);
        setError(null);
      })
      .catch(setError);
  }, [id, interval, zone]);

  useEffect(() => {
    if (!data || !host.current) return;
    const chart = draw(host.current, data);
    return () => chart.destroy();
  }, [data]);

  const b = data?.baseline;
  return html`
    <article aria-label="Baseline plot">
      <h2>${String(b?.display_name ?? id)}</h2>
      <p class="meta">metric <code>${String(b?.metric_id ?? '')}</code> · ${String(b?.observation_count ?? 0)} observations · mean ${fmt(b?.baseline_float)} · sigma ${fmt(b?.baseline_sigma)} ·${' '}
        <button type="button" class="link" onClick=${() => go(`#/state/baseline/${encodeURIComponent(id)}`)}>record</button></p>
      <form class="filters" onSubmit=${(e: Event) => e.preventDefault()} aria-label="Plot options">
        <label>Bucket width <select name="bucket_interval" value=${interval} onChange=${(e: Event) => setInterval_((e.target as HTMLSelectElement).value)}>
          ${INTERVALS.map((i) => html`<option value=${i}>${i}</option>`)}
        </select></label>
        <label>Time zone <select name="timezone" value=${zone} onChange=${(e: Event) => setZone((e.target as HTMLSelectElement).value)}>
          ${ZONES.map((z) => html`<option value=${z}>${z}</option>`)}
        </select></label>
      </form>
      <${ErrorBox} error=${error} />
      <div class="plot" ref=${host} role="img" aria-label=${`EWMA mean with sigma bands over ${data?.buckets.length ?? 0} buckets and ${data?.observations.length ?? 0} observations`}></div>
      ${data && data.buckets.length === 0 ? html`<p class="hint">No observations yet: complete a run with this baseline's metric.</p>` : null}
      ${data && data.buckets.length > 0
        ? html`<table class="kv" aria-label="History buckets"><thead><tr><th>bucket (${data.timezone})</th><th>mean</th><th>sigma</th><th>observations</th></tr></thead>
            <tbody>${data.buckets.map((x) => html`<tr><td>${x.bucket_time}</td><td>${fmt(x.mean)}</td><td>${fmt(x.sigma)}</td><td>${x.count}</td></tr>`)}</tbody></table>`
        : null}
    </article>
  `;
}

function fmt(v: unknown): string {
  return typeof v === 'number' ? displayNumber(v) : '–';
}

/** One uPlot chart: x is seconds; buckets and observations share it (each series is null where it has no point). */
function draw(el: HTMLElement, d: BaselinePlotData): uPlot {
  const xs = [...new Set([...d.buckets.map((b) => b.start / 1000), ...d.observations.map((o) => Date.parse(o.at) / 1000)])].sort((a, b) => a - b);
  const bucketAt = new Map(d.buckets.map((b) => [b.start / 1000, b]));
  const obsAt = new Map(d.observations.map((o) => [Date.parse(o.at) / 1000, o.value]));
  const band = (n: number) => xs.map((x) => { const b = bucketAt.get(x); return b ? b.mean + n * b.sigma : null; });
  const series: (number | null)[][] = [
    xs.map((x) => bucketAt.get(x)?.mean ?? null),
    band(2), band(1), band(-1), band(-2),
    xs.map((x) => obsAt.get(x) ?? null),
  ];
  const line = (label: string, stroke: string, dash?: number[]): uPlot.Series => ({ label, stroke, width: 1.5, spanGaps: true, dash, points: { show: false } });
  const opts: uPlot.Options = {
    width: Math.max(320, el.clientWidth || 720),
    height: 320,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), d.timezone),
    scales: { x: { time: true } },
    series: [
      {},
      line('EWMA mean', '#1f5fbf'),
      line('+2σ', '#b0c4e8', [4, 4]),
      line('+1σ', '#7f9fd6'),
      line('−1σ', '#7f9fd6'),
      line('−2σ', '#b0c4e8', [4, 4]),
      { label: 'observation', stroke: '#c0392b', paths: () => null, points: { show: true, size: 7, fill: '#c0392b' }, spanGaps: false },
    ],
    bands: [
      { series: [2, 5], fill: 'rgba(31, 95, 191, 0.08)' },
      { series: [3, 4], fill: 'rgba(31, 95, 191, 0.14)' },
    ],
    axes: [{}, { label: 'metric value' }],
  };
  return new uPlot(opts, [xs, ...series] as uPlot.AlignedData, el);
}
