// api-facts-shapes.md §2.7 (AL1-AL7, overlay /alerts and snapshot /monitors), §3.7 (alert, condition, event),
// §1 (legacy renames), §4 (E21-E31), §6 items 1, 5, 12, 16. Written by hand from that file.
import { type FactRow, type Fields, f, withEnums } from './row.js';

const alert: Fields = {
  attribution: { type: 'object', nullable: true },
  ulid: { type: 'string', required: true },
  name: { type: 'string', required: true },
  description: { type: 'string' },
  status: { type: 'string', required: true },
  evaluation_type: { type: 'string', required: true },
  match_mode: { type: 'string', required: true },
  cooldown_seconds: { type: 'number', required: true },
  custom_message_template: { type: 'string', nullable: true },
  agent_ids: { type: 'array', nullable: true },
  required_tags: { type: 'array', nullable: true },
  scheduled_run_ids: { type: 'array', nullable: true },
  customer_metadata: { type: 'object' },
  trigger_count: { type: 'number' },
  last_triggered_at: { type: 'string', nullable: true },
  conditions: { type: 'array' },
  channels: { type: 'array' },
  create_time: { type: 'string', required: true },
  update_time: { type: 'string', required: true },
  'conditions[].ulid': { type: 'string', required: true },
  'conditions[].metric_id': { type: 'string', nullable: true },
  'conditions[].aggregation': { type: 'string', required: true },
  'conditions[].operator': { type: 'string', required: true },
  'conditions[].threshold_float': { type: 'number', nullable: true },
  'conditions[].threshold_string': { type: 'string', nullable: true },
  'conditions[].window_size_days': { type: 'number', nullable: true },
  'conditions[].window_size_runs': { type: 'number', nullable: true },
  'conditions[].match_value': { type: 'string', nullable: true },
  'conditions[].match_mode': { type: 'string', nullable: true },
  'conditions[].baseline_id': { type: 'string', nullable: true },
  'conditions[].sigma_threshold': { type: 'number', nullable: true },
  'conditions[].direction': { type: 'string', nullable: true },
  'conditions[].warm_up_count': { type: 'number', nullable: true },
  'channels[].ulid': { type: 'string', required: true },
  'channels[].channel_type': { type: 'string', required: true },
  'channels[].config': { type: 'object', required: true },
};
const canonical: Fields = { ...alert, enabled: { type: 'boolean', required: true }, conversation_source: { type: 'string', required: true } };
const legacy: Fields = { ...alert, scope: { type: 'string', required: true } };

// AL2 in the facts' notation; condition input = the response condition without ulid; channel input {channel_type*, config*}.
const E22 = ['ON_RUN_COMPLETE'];
const E25 = ['ALL', 'ANY'];
const createBody: Fields = {
  name: f('string*'),
  description: f('string'),
  evaluation_type: f('string*', E22),
  match_mode: f('string', E25),
  cooldown_seconds: f('number'),
  custom_message_template: f('string|null'),
  agent_ids: f('array|null'),
  required_tags: f('array|null'),
  scheduled_run_ids: f('array|null'),
  customer_metadata: f('object'),
  conditions: f('array*'),
  channels: f('array'),
  'conditions[].metric_id': f('string|null'),
  'conditions[].aggregation': f('string*', ['SINGLE', 'RUN_AVERAGE', 'RUN_FRACTION', 'JOB_SUCCESS', 'BASELINE_DEVIATION']),
  'conditions[].operator': f('string*', ['GT', 'GTE', 'LT', 'LTE', 'EQ', 'NEQ']),
  'conditions[].threshold_float': f('number|null'),
  'conditions[].threshold_string': f('string|null'),
  'conditions[].window_size_days': f('number|null'),
  'conditions[].window_size_runs': f('number|null'),
  'conditions[].match_value': f('string|null'),
  'conditions[].match_mode': f('string|null', ['exact', 'contains', 'contains_case_insensitive']),
  'conditions[].baseline_id': f('string|null'),
  'conditions[].sigma_threshold': f('number|null'),
  'conditions[].direction': f('string|null', ['above', 'below', 'both']),
  'conditions[].warm_up_count': f('number|null'),
  'channels[].channel_type': f('string*', ['SLACK', 'EMAIL', 'WEBHOOK', 'HUMAN_REVIEW']),
  'channels[].config': f('object*'),
};
// AL4: every AL2 field optional, plus `enabled` (overlay). The seed's PATCH lists a condition item's fields without
// aggregation and operator, so their requiredness inside a replacement set is not asserted there (seed wins).
const updateBody: Fields = { ...createBody, name: f('string'), evaluation_type: f('string', E22), conditions: f('array'), enabled: f('boolean|null') };
updateBody['conditions[].aggregation'] = { type: 'string' };
updateBody['conditions[].operator'] = { type: 'string' };

const resourceEnums = {
  status: ['ACTIVE', 'DELETED'],
  evaluation_type: ['ON_RUN_COMPLETE'],
  match_mode: ['ALL', 'ANY'],
  'conditions[].aggregation': ['SINGLE', 'RUN_AVERAGE', 'RUN_FRACTION', 'JOB_SUCCESS', 'BASELINE_DEVIATION'],
  'conditions[].operator': ['GT', 'GTE', 'LT', 'LTE', 'EQ', 'NEQ'],
  'conditions[].match_mode': ['exact', 'contains', 'contains_case_insensitive'],
  'conditions[].direction': ['above', 'below', 'both'],
  'channels[].channel_type': ['SLACK', 'EMAIL', 'WEBHOOK', 'HUMAN_REVIEW'],
};
const E24 = ['ALL', 'UPLOADED', 'SIMULATED'];
const E23 = ['ALL', 'MONITORING', 'SIMULATION'];

const OUTCOMES = ['TRIGGERED', 'NOT_MET', 'SUPPRESSED', 'ERROR'];

const event: Fields = {
  ulid: { type: 'string', required: true },
  run_id: { type: 'string', required: true },
  outcome: { type: 'string', required: true },
  condition_results: { type: 'array' },
  'condition_results[].metric_id': { type: 'string', required: true },
  'condition_results[].metric_display_name': { type: 'string', required: true },
  'condition_results[].aggregation': { type: 'string', required: true },
  'condition_results[].computed_value': {},
  'condition_results[].threshold': {},
  'condition_results[].operator': { type: 'string', required: true },
  'condition_results[].met': { type: 'boolean', required: true },
  'condition_results[].metadata': { type: 'object' },
  dispatched_channels: { type: 'array' },
  'dispatched_channels[].channel_type': { type: 'string', required: true },
  'dispatched_channels[].channel_summary': { type: 'string', required: true },
  'dispatched_channels[].success': { type: 'boolean', required: true },
  'dispatched_channels[].error': { type: 'string', nullable: true },
  message_sent: { type: 'string', nullable: true },
  created_at: { type: 'string', required: true },
};
const testEvaluate: Fields = { run_id: { type: 'string', required: true }, triggered: { type: 'boolean', required: true }, suppressed: { type: 'boolean' }, condition_results: { type: 'array' }, dispatch_results: { type: 'array' }, message: { type: 'string' } };
// §2.7: the overlay sends the optional workspace header on AL1-AL5 (§6 item 16).
const WORKSPACE_HEADER = 'X-Service-Workspace-Id';
const page: Fields = { next_page_token: { type: 'string', nullable: true }, total_count: { type: 'number', required: true } };

export const rows: FactRow[] = [
  { fact: 'AL1', headers: [WORKSPACE_HEADER], method: 'GET', path: '/alerts', status: 200, wrapper: 'alerts', top: page, query: ['conversation_source', 'page_size', 'page_token'], response: withEnums(canonical, { ...resourceEnums, conversation_source: E24 }), queryEnums: { conversation_source: E24 } },
  { fact: 'AL1 legacy', method: 'GET', path: '/monitors', status: 200, wrapper: 'monitors', top: page, query: ['scope', 'page_size', 'page_token'], response: withEnums(legacy, { scope: E23 }), queryEnums: { scope: E23 } },
  { fact: 'AL2', headers: [WORKSPACE_HEADER], method: 'POST', path: '/alerts', status: 201, body: { ...createBody, conversation_source: f('string', E24) }, response: canonical },
  { fact: 'AL2 legacy', method: 'POST', path: '/monitors', status: 201, body: { ...createBody, scope: f('string', E23) }, response: legacy },
  { fact: 'AL3', headers: [WORKSPACE_HEADER], method: 'GET', path: '/alerts/{alert_id}', status: 200, response: withEnums(canonical, resourceEnums) },
  { fact: 'AL3 legacy', method: 'GET', path: '/monitors/{monitor_id}', status: 200, response: legacy },
  { fact: 'AL4', headers: [WORKSPACE_HEADER], method: 'PATCH', path: '/alerts/{alert_id}', status: 200, body: { ...updateBody, conversation_source: f('string', E24) }, response: canonical },
  { fact: 'AL4 legacy', method: 'PATCH', path: '/monitors/{monitor_id}', status: 200, body: { ...updateBody, scope: f('string', E23) }, response: legacy },
  { fact: 'AL5', headers: [WORKSPACE_HEADER], method: 'DELETE', path: '/alerts/{alert_id}', status: 204 },
  { fact: 'AL5 legacy', method: 'DELETE', path: '/monitors/{monitor_id}', status: 204 },
  { fact: 'AL6', method: 'GET', path: '/alerts/{alert_id}/events', status: 200, wrapper: 'events', top: page, query: ['outcome', 'page_size', 'page_token'], response: withEnums({ ...event, alert_ulid: { type: 'string', required: true } }, { outcome: OUTCOMES }), queryEnums: { outcome: OUTCOMES } },
  { fact: 'AL6 legacy', method: 'GET', path: '/monitors/{monitor_id}/events', status: 200, wrapper: 'events', top: page, query: ['outcome', 'page_size', 'page_token'], response: { ...event, monitor_ulid: { type: 'string', required: true } } },
  { fact: 'AL7', method: 'POST', path: '/alerts/{alert_id}/test-evaluate', status: 200, body: { run_id: f('string*') }, top: { ...testEvaluate, alert_id: { type: 'string', required: true } } },
  { fact: 'AL7 legacy', method: 'POST', path: '/monitors/{monitor_id}/test-evaluate', status: 200, body: { run_id: f('string*') }, top: { ...testEvaluate, monitor_id: { type: 'string', required: true } } },
];
