// Metrics family, transcribed by hand from api-facts-shapes.md 2.8 (operations), 3.8 (resources) and 4 (E2,
// E10-E20). MT duplicate is in api-facts.md's catalog only (section 4); its row follows PE8/TS8.
// Requiredness is asserted only where the facts mark a field `*`; `|null` is asserted as nullable.
import { type FactRow, type FieldSpec, f } from './row.js';

const str: FieldSpec = { type: 'string' };
const strNull: FieldSpec = { type: 'string', nullable: true };
const numNull: FieldSpec = { type: 'number', nullable: true };
const E10 = ['METRIC_LLM_BINARY', 'METRIC_CATEGORICAL', 'METRIC_NUMERICAL_LLM_JUDGE', 'METRIC_AUDIO_LLM_BINARY', 'METRIC_AUDIO_LLM_CATEGORICAL', 'METRIC_AUDIO_LLM_NUMERICAL', 'METRIC_TOOLCALL', 'METRIC_METADATA_FIELD', 'METRIC_TRANSCRIPT_REGEX', 'METRIC_PAUSE_ANALYSIS', 'METRIC_SQL_FLOAT'];
const E14 = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'bt', 'nbt'];
const E16 = ['ACTIVE', 'STANDBY', 'ARCHIVED'];
const E18 = ['BOTH', 'ABOVE', 'BELOW'];

// 3.8 Metric (the snapshot client's 23 fields; none required)
const metric: Record<string, FieldSpec> = {
  name: str,
  id: str,
  metric_name: str,
  description: str,
  metric_type: { type: 'string', enum: E10 },
  prompt: strNull,
  metadata_field_key: strNull,
  regex_pattern: strNull,
  sql_query: strNull,
  categories: { type: 'array', nullable: true },
  min_value: numNull,
  max_value: numNull,
  min_pause_duration_seconds: numNull,
  metadata_field_type: { type: 'string', nullable: true, enum: ['STRING', 'NUMBER', 'BOOLEAN'] },
  role: { type: 'string', nullable: true, enum: ['agent', 'user'] },
  include_traces: { type: 'boolean', nullable: true },
  target_condition: { type: 'object', nullable: true },
  created_by: strNull,
  update_time: strNull,
  tags: { type: 'array' },
  create_time: str,
  current_version: { type: 'object' },
};

// 3.8 target_condition {comparison_operator* E13, target_float num|null, target_values [str]|null}
const targetCondition: Record<string, FieldSpec> = {
  'target_condition.comparison_operator': { type: 'string', required: true, enum: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'] },
  'target_condition.target_float': { type: 'number', nullable: true },
  'target_condition.target_values': { type: 'array', nullable: true },
};

const metricVersion: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  ulid: { type: 'string', required: true },
  version_number: { type: 'number', required: true },
  change_type: { type: 'string', required: true, enum: ['save', 'revert'] },
  metric_type: { type: 'string', required: true, enum: E10 },
  metric_metadata: { type: 'object' },
  label: strNull,
  created_by: { type: 'string', required: true },
  create_time: strNull,
};

const baseline: Record<string, FieldSpec> = {
  ulid: { type: 'string', required: true },
  status: { type: 'string', required: true, enum: E16 },
  detection_method: { type: 'string', required: true, enum: ['EWMA'] },
  sigma_threshold: { type: 'number', required: true },
  direction: { type: 'string', required: true, enum: E18 },
  agent_id: strNull,
  test_set_id: strNull,
  persona_id: strNull,
  sigma_bands: { type: 'object', nullable: true },
  last_processed_run_completed_at: strNull,
  observation_count: { type: 'number' },
  created_at: { type: 'string', required: true },
  last_updated_at: { type: 'string', required: true },
};

const threshold: Record<string, FieldSpec> = {
  name: str,
  comparison_operator: { type: 'string', nullable: true, enum: E14 },
  target_float_upper: numNull,
  target_float_lower: numNull,
  target_values: { type: 'array', nullable: true },
  source: { type: 'string', nullable: true, enum: ['manual', 'model'] },
  create_time: strNull,
  update_time: strNull,
};

const flow: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  id: { type: 'string', required: true },
  create_time: strNull,
  trigger_metric_id: { type: 'string', required: true },
  followup_metric_id: { type: 'string', required: true },
  trigger_criteria: { type: 'object', nullable: true },
  status: { type: 'string', required: true, enum: ['ACTIVE', 'INACTIVE', 'DELETED'] },
  trigger_metric_name: strNull,
  trigger_metric_display_name: strNull,
  followup_metric_name: strNull,
  followup_metric_display_name: strNull,
};

// MT2 in the facts' notation; MT4: the same 17 fields, all optional, nullable only include_traces, runtime_config,
// target_condition and tags.
const E11 = ['STRING', 'NUMBER', 'BOOLEAN'];
const metricCreateBody: Record<string, FieldSpec> = {
  metric_name: f('string*'),
  description: f('string*'),
  metric_type: f('string*', E10),
  prompt: f('string'),
  categories: f('array'),
  min_value: f('number'),
  max_value: f('number'),
  metadata_field_type: f('string', E11),
  metadata_field_key: f('string'),
  regex_pattern: f('string'),
  role: f('string', ['agent', 'user']),
  min_pause_duration_seconds: f('number'),
  sql_query: f('string'),
  include_traces: f('boolean'),
  runtime_config: f('object'),
  'runtime_config.model_version': f('string'),
  'runtime_config.thinking_enabled': f('boolean|null'),
  target_condition: f('object|null'),
  'target_condition.comparison_operator': f('string*', ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin']),
  'target_condition.target_float': f('number|null'),
  'target_condition.target_values': f('array|null'),
  tags: f('array|null'),
};
const metricUpdateBody: Record<string, FieldSpec> = {
  ...Object.fromEntries(Object.entries(metricCreateBody).map(([k, v]) => [k, { ...v, required: k === 'target_condition.comparison_operator' }])),
  include_traces: f('boolean|null'),
  runtime_config: f('object|null'),
};
const flowBody = (required: boolean): Record<string, FieldSpec> => ({
  trigger_metric_id: f('string*'),
  followup_metric_id: f('string*'),
  trigger_criteria: f('object|null'),
  status: f(required ? 'string*' : 'string', ['ACTIVE', 'INACTIVE']),
});
export const rows: FactRow[] = [
  { fact: 'MT1', method: 'GET', path: '/metrics', status: 200, wrapper: 'metrics', response: metric, query: ['page_size', 'page_token', 'order_by', 'filter', 'include_builtin', 'tag_filters'] },
  { fact: 'MT2', method: 'POST', path: '/metrics', status: 201, wrapper: 'metric', body: metricCreateBody, response: { ...metric, ...targetCondition } },
  { fact: 'MT3', method: 'GET', path: '/metrics/{metric_id}', status: 200, wrapper: 'metric', response: metric },
  { fact: 'MT4', method: 'PATCH', path: '/metrics/{metric_id}', status: 200, wrapper: 'metric', body: metricUpdateBody, response: metric },
  { fact: 'MT5', method: 'DELETE', path: '/metrics/{metric_id}', status: 200 },
  { fact: 'MT6', method: 'POST', path: '/metrics/{metric_id}/restore', status: 200, wrapper: 'metric', response: metric },
  {
    fact: 'MT7',
    method: 'GET',
    path: '/metrics/recently-deleted',
    status: 200,
    wrapper: 'metrics',
    response: { name: { type: 'string', required: true }, id: { type: 'string', required: true }, metric_name: { type: 'string', required: true }, delete_time: strNull, deleted_by: strNull, purge_time: strNull },
  },
  { fact: 'MT8', method: 'GET', path: '/metrics/{metric_id}/versions', status: 200, wrapper: 'versions', response: metricVersion },
  { fact: 'MT9', method: 'POST', path: '/metrics/{metric_id}/versions/{version_id}/revert', status: 200, wrapper: 'metric', response: metric },
  { fact: 'MT duplicate', method: 'POST', path: '/metrics/{metric_id}/duplicate', status: 201, wrapper: 'metric', response: metric },
  { fact: 'MT10', method: 'GET', path: '/metrics/{metric_id}/baselines', status: 200, wrapper: 'baselines', response: baseline, query: ['agent_id', 'test_set_id', 'persona_id', 'status', 'page_size', 'page_token', 'sigma_levels'], queryEnums: { status: E16 } },
  { fact: 'MT10 total', method: 'GET', path: '/metrics/{metric_id}/baselines', response: { next_page_token: strNull, total_count: { type: 'number' } } },
  {
    fact: 'MT11',
    method: 'POST',
    path: '/metrics/{metric_id}/baselines',
    status: 201,
    body: {
      agent_id: f('string|null'),
      test_set_id: f('string|null'),
      persona_id: f('string|null'),
      display_name: f('string|null'),
      status: f('string', E16),
      detection_method: f('string', ['EWMA']),
      sigma_threshold: f('number|null'),
      direction: f('string', E18),
      config: f('object'),
      'config.time_constant_seconds': f('number'),
    },
    response: baseline,
  },
  { fact: 'MT12', method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}', status: 200, response: baseline, query: ['sigma_levels'] },
  {
    fact: 'MT13',
    method: 'PATCH',
    path: '/metrics/{metric_id}/baselines/{baseline_id}',
    status: 200,
    body: { display_name: f('string|null'), sigma_threshold: f('number|null'), direction: f('string', E18), status: f('string', E16) },
    response: baseline,
  },
  { fact: 'MT14', method: 'DELETE', path: '/metrics/{metric_id}/baselines/{baseline_id}', status: 204 },
  { fact: 'MT15', method: 'GET', path: '/metrics/{metric_id}/baselines/{baseline_id}/history', status: 200, wrapper: 'history', query: ['bucket_interval', 'timezone', 'start_date', 'end_date'], response: { bucket_time: { type: 'string', required: true }, baseline_mean: { type: 'number', required: true }, baseline_sigma: { type: 'number', required: true }, observation_count: { type: 'number', required: true } } },
  { fact: 'MT16', method: 'GET', path: '/metrics/{metric_id}/threshold', status: 200, wrapper: 'threshold', response: threshold },
  {
    fact: 'MT17',
    method: 'PATCH',
    path: '/metrics/{metric_id}/threshold',
    status: 200,
    wrapper: 'threshold',
    body: { comparison_operator: f('string*|null', E14), target_float_upper: f('number|null'), target_float_lower: f('number|null'), target_values: f('array|null'), source: f('string', ['manual', 'model']) },
    response: threshold,
  },
  { fact: 'MT18', method: 'GET', path: '/metrics/{metric_id}/thresholds', status: 200, wrapper: 'thresholds', response: threshold, query: ['page_size', 'page_token'] },
  {
    fact: 'MT19',
    method: 'POST',
    path: '/metrics/{metric_id}/thresholds',
    status: 201,
    wrapper: 'threshold',
    body: { comparison_operator: f('string*', E14), target_float_upper: f('number|null'), target_float_lower: f('number|null'), target_values: f('array|null'), source: f('string', ['manual', 'model']) },
    response: threshold,
  },
  { fact: 'MT20', method: 'DELETE', path: '/metrics/{metric_id}/thresholds/{threshold_id}', status: 200 },
  { fact: 'MT21', method: 'GET', path: '/metrics/flows', status: 200, wrapper: 'metric_flows', response: flow, query: ['page_size', 'page_token', 'order_by', 'status_filter', 'search_query'], queryEnums: { status_filter: ['ACTIVE', 'INACTIVE'] } },
  { fact: 'MT22', method: 'POST', path: '/metrics/flows', status: 201, wrapper: 'metric_flow', body: flowBody(false), response: flow },
  { fact: 'MT23', method: 'PATCH', path: '/metrics/flows/{flow_id}', status: 200, wrapper: 'metric_flow', body: flowBody(true), response: flow },
  { fact: 'MT24', method: 'DELETE', path: '/metrics/flows/{flow_id}', status: 200 },
  { fact: 'MT25', method: 'GET', path: '/metrics/tags', status: 200, wrapper: 'tags', response: { tag: { type: 'string', required: true }, color: strNull } },
  { fact: 'MT26', method: 'GET', path: '/metrics/template-variables', status: 200, response: { version: { type: 'string', required: true }, categories: { type: 'array', required: true } } },
  {
    fact: 'MT26 category',
    method: 'GET',
    path: '/metrics/template-variables',
    wrapper: 'categories',
    response: {
      prefix: { type: 'string', required: true },
      display_name: { type: 'string', required: true },
      description: { type: 'string', required: true },
      source_field: { type: 'string', required: true },
      supports_custom_keys: { type: 'boolean', required: true },
      example_keys: { type: 'array', required: true },
    },
  },
  {
    fact: 'MT27',
    method: 'GET',
    path: '/models/metric',
    status: 200,
    wrapper: 'models',
    response: {
      model_id: { type: 'string', required: true },
      display_name: { type: 'string', required: true },
      provider: { type: 'string', required: true, enum: ['openai', 'anthropic', 'google'] },
      tier: { type: 'string', required: true, enum: ['standard', 'enterprise'] },
      supports_thinking: { type: 'boolean', required: true },
    },
  },
  {
    fact: 'MT28',
    method: 'GET',
    path: '/metrics/sql-schema',
    status: 200,
    wrapper: 'tables',
    response: {
      name: f('string*'),
      columns: f('array*'),
      'columns[].name': f('string*'),
      'columns[].sql_type': f('string*'),
      'columns[].enum': f('object|null'),
      'columns[].enum.name': f('string*'),
      'columns[].enum.values': f('array*'),
      sample_rows: f('array'),
    },
  },
  {
    fact: 'MT29',
    method: 'POST',
    path: '/metrics/sql:test',
    status: 200,
    body: { sql_query: f('string*'), aggregation_method: f('string|null'), unit: f('string|null') },
    response: {
      value: f('number|null'),
      unit: f('string|null'),
      aggregation_method: f('string|null'),
      row_count: f('integer'),
      subvalues: f('array'),
      'subvalues[].start_offset_seconds': f('number*'),
      'subvalues[].end_offset_seconds': f('number*'),
      'subvalues[].value': f('number*'),
      error: f('string|null'),
    },
  },
  {
    fact: 'MT30',
    method: 'POST',
    path: '/metrics/{metric_id}/test',
    status: 202,
    body: { simulation_output_id: f('string*'), dev_id: f('string') },
    response: { metric_output_ulid: str },
  },
];
