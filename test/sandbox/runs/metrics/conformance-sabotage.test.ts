// The conformance checks of issue 25 catch broken metric semantics: with a rule of the sandbox replaced by one
// that answers plausibly but wrongly, the checks of its operation fail and name the rule.
import { describe, expect, it } from 'vitest';
import { inProcessTarget } from '../../../../src/conformance/in-process.js';
import { runSuite } from '../../../../src/conformance/run.js';
import type { Rule } from '../../../../src/sandbox/engine/hooks.js';
import { metricSqlSchema } from '../../../../src/sandbox/rules/metric-sql-schema.js';
import { metricTest } from '../../../../src/sandbox/rules/metric-test.js';
import { storeOutcome } from '../../../../src/sandbox/runs/metrics/score.js';

const broken: [string, string, Rule][] = [
  // sql:test that ignores the query: always one row of value 0.
  ['metric-sql-test', 'testMetricSql', { handleUnlocked: async () => ({ body: { value: 0, unit: null, aggregation_method: 'COUNT', row_count: 1, subvalues: [{ start_offset_seconds: 0, end_offset_seconds: 0, value: 0 }], error: null } }) }],
  // A metric test whose output always completes with 0, whatever the metric and transcript.
  [
    'metric-test',
    'testMetric',
    {
      handle: metricTest.handle!,
      onEvent: (runtime, event) => {
        const p = event.payload as { simulation_id: string; metric_output_id: string };
        storeOutcome(runtime, p.simulation_id, p.metric_output_id, { status: 'COMPLETED', value: 0, explanation: 'broken', status_reason: null });
      },
    },
  ],
  // A schema that describes a column the queries cannot read.
  [
    'metric-sql-schema',
    'getMetricSqlSchema',
    {
      handle(ctx) {
        const body = metricSqlSchema.handle!(ctx).body as { tables: { columns: unknown[] }[] };
        body.tables[0]!.columns.push({ name: 'sentiment', sql_type: 'TEXT', enum: null });
        return { body };
      },
    },
  ],
];

describe('a metric rule broken on purpose', () => {
  it.each(broken)('%s: the checks of %s fail, naming it', async (rule, operation, module) => {
    const { target, sandbox } = await inProcessTarget({ rules: { [rule]: module } });
    try {
      const results = await runSuite(target, { operations: [operation] });
      const failed = results.filter((r) => r.outcome === 'fail');
      expect(failed.length, `no check failed with ${rule} broken`).toBeGreaterThan(0);
      expect(failed.some((r) => r.rules.includes(rule) && r.check.startsWith(`rule ${rule}`))).toBe(true);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
