// The newer client's rows, by hand: api-facts-shapes.md 2.8 MT31 (metric outputs read in a batch, with E-MO) and
// 2.14 (RP10 with E-BL, RP7', RP8', TG1', AL1'). MT28-MT30 (SQL schema, SQL test, metric test) and SC7' belong to
// the metrics and runs work and are tabled there.
import { type FactRow, type FieldSpec, f } from './row.js';

const E_MO = ['IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'SKIPPED', 'FAILED', 'CANCELLED'];
const E_BL = ['MISSING_METRIC_VALUE', 'MISSING_DISAGREEMENT_NOTE', 'MISSING_REVIEW_LABEL'];
const VIEW_MODES = ['score', 'criteria'];
const strNull: FieldSpec = { type: 'string', nullable: true };
const ids: FieldSpec = { type: 'array' };

// MT31's metric output.
const metricOutput: Record<string, FieldSpec> = {
  metric_output_id: { type: 'string', required: true },
  metric_id: { type: 'string', required: true },
  metric_version_ulid: strNull,
  value: {},
  status: { type: 'string', required: true, enum: E_MO },
  status_reason: strNull,
  explanation: strNull,
  subvalues_by_timestamp: { type: 'array', nullable: true },
  result: { type: 'object', nullable: true },
  runtime_metadata: { type: 'object', nullable: true },
};

// RP7' metric_stats item.
const metricStats: Record<string, FieldSpec> = {
  metric_id: { type: 'string', required: true },
  conversations: { type: 'integer', required: true },
  annotations: { type: 'integer', required: true },
  agreements: { type: 'integer', required: true },
  disagreements: { type: 'integer', required: true },
  not_reviewed: { type: 'integer', required: true },
  unknown: { type: 'integer', required: true },
  agreement_rate: { type: 'number', required: true },
  criteria_agreement: { type: 'object', nullable: true },
  simulation_output_ids: ids,
  agreement_simulation_output_ids: ids,
  disagreement_simulation_output_ids: ids,
  not_reviewed_simulation_output_ids: ids,
  unknown_simulation_output_ids: ids,
};

export const rows: FactRow[] = [
  { fact: 'MT31', method: 'POST', path: '/metrics/outputs:batchGet', status: 200, wrapper: 'metric_outputs', body: { metric_output_ids: f('array*') }, response: metricOutput },
  {
    fact: 'RP10',
    method: 'POST',
    path: '/review-projects/{project_id}/complete-conversation',
    status: 200,
    body: { simulation_output_id: f('string*'), assignee: f('string|null') },
    response: {
      success: { type: 'boolean', required: true },
      is_complete: { type: 'boolean', required: true },
      completed_conversation_count: { type: 'integer', required: true },
      blockers: { type: 'array' },
      'blockers[].code': { type: 'string', required: true, enum: E_BL },
      'blockers[].message': { type: 'string', required: true },
      'blockers[].metric_id': strNull,
    },
  },
  {
    fact: "RP7'",
    method: 'GET',
    path: '/review-projects/{project_id}/insights',
    status: 200,
    wrapper: 'metric_stats',
    query: ['start_date', 'end_date', 'label_triage_time_basis', 'criteria_view_mode'],
    queryRequired: ['start_date', 'end_date'],
    queryEnums: { label_triage_time_basis: ['simulation', 'label'], criteria_view_mode: VIEW_MODES },
    response: metricStats,
  },
  {
    fact: "RP8'",
    method: 'GET',
    path: '/review-projects/{project_id}/metric-agreement',
    status: 200,
    query: ['criteria_view_mode'],
    queryEnums: { criteria_view_mode: VIEW_MODES },
    response: { agreement_by_metric_id: { type: 'object', required: true } },
  },
  {
    fact: "TG1'",
    method: 'GET',
    path: '/tags',
    status: 200,
    wrapper: 'tags',
    query: ['page_size', 'page_token', 'search', 'unused_only', 'tag_id', 'include_usage'],
  },
  {
    fact: "AL1'",
    method: 'GET',
    path: '/alerts',
    status: 200,
    wrapper: 'alerts',
    query: ['page_size', 'page_token', 'conversation_source'],
    queryEnums: { conversation_source: ['ALL', 'UPLOADED', 'SIMULATED'] },
  },
];
