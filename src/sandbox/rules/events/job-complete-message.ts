// The `message` of a run's job_complete delivery (facts 2.17: "a human-readable summary line naming the test set,
// the outcome, a link to the run and who created it, followed by metric results when available"). The link is the
// run's resource path under the API (the sandbox does not know the address its caller reaches it by).
import type { Runtime } from '../../engine/context.js';
import type { Json } from '../../storage/store.js';

function named(runtime: Runtime, kind: string, id: unknown, field: string): string | null {
  if (typeof id !== 'string') return null;
  const value = runtime.store.get(kind, id)?.data[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function jobCompleteMessage(runtime: Runtime, runId: string | null, status: string, metricMeans: Json): string {
  const run = runId ? runtime.store.get('run', runId) : undefined;
  const testSet = run ? named(runtime, 'test_set', run.data.test_set_id, 'display_name') : null;
  const who = run && typeof run.data.created_by === 'string' ? run.data.created_by : 'the API';
  const metrics = Object.entries(metricMeans)
    .map(([id, value]) => `${named(runtime, 'metric', id, 'metric_name') ?? id}: ${typeof value === 'number' ? Number(value.toFixed(4)) : String(value)}`)
    .join(', ');
  const head = `Run ${runId ?? '(none)'} on test set ${testSet ?? (run?.data.test_set_id as string | undefined) ?? '(none)'} ${status}. View: ${runtime.tables.basePath}/runs/${runId ?? ''}. Created by ${who}.`;
  return metrics === '' ? head : `${head} Metrics: ${metrics}.`;
}
