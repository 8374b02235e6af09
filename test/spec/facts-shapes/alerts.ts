// api-facts-shapes.md §2.7 (AL1-AL7, overlay /alerts and snapshot /monitors), §3.7 (alert, condition, event),
// §1 (legacy renames), §4 (E21-E31), §6 items 1, 5, 12, 16. Written by hand from that file.
import type { FactRow } from './row.js';

const alert = {
  attribution: 'map|null',
  ulid: 'str*',
  name: 'str*',
  description: 'str',
  status: 'str*',
  evaluation_type: 'str*',
  match_mode: 'str*',
  cooldown_seconds: 'num*',
  custom_message_template: 'str|null',
  agent_ids: 'arr|null',
  required_tags: 'arr|null',
  scheduled_run_ids: 'arr|null',
  customer_metadata: 'map',
  trigger_count: 'num',
  last_triggered_at: 'str|null',
  conditions: 'arr',
  channels: 'arr',
  create_time: 'str*',
  update_time: 'str*',
  'conditions[].ulid': 'str*',
  'conditions[].metric_id': 'str|null',
  'conditions[].aggregation': 'str*',
  'conditions[].operator': 'str*',
  'conditions[].threshold_float': 'num|null',
  'conditions[].threshold_string': 'str|null',
  'conditions[].window_size_days': 'num|null',
  'conditions[].window_size_runs': 'num|null',
  'conditions[].match_value': 'str|null',
  'conditions[].match_mode': 'str|null',
  'conditions[].baseline_id': 'str|null',
  'conditions[].sigma_threshold': 'num|null',
  'conditions[].direction': 'str|null',
  'conditions[].warm_up_count': 'num|null',
  'channels[].ulid': 'str*',
  'channels[].channel_type': 'str*',
  'channels[].config': 'map*',
};
const canonical = { ...alert, enabled: 'bool*', conversation_source: 'str*' };
const legacy = { ...alert, scope: 'str*' };

const createBody = {
  name: 'str*',
  description: 'str',
  evaluation_type: 'str',
  match_mode: 'str',
  cooldown_seconds: 'num',
  custom_message_template: 'str',
  agent_ids: 'arr|null',
  required_tags: 'arr|null',
  scheduled_run_ids: 'arr|null',
  customer_metadata: 'map',
  conditions: 'arr*',
  channels: 'arr',
  'conditions[].metric_id': 'str|null',
  'conditions[].aggregation': 'str*',
  'conditions[].operator': 'str*',
  'conditions[].baseline_id': 'str|null',
  'conditions[].sigma_threshold': 'num|null',
  'conditions[].direction': 'str|null',
  'conditions[].warm_up_count': 'num|null',
  'channels[].channel_type': 'str*',
  'channels[].config': 'map*',
};
const updateBody = { ...createBody, name: 'str', conditions: 'arr', enabled: 'bool|null' };
delete (updateBody as Record<string, string>)['conditions[].aggregation'];
delete (updateBody as Record<string, string>)['conditions[].operator'];

const enums = {
  'response.status': ['ACTIVE', 'DELETED'],
  'response.evaluation_type': ['ON_RUN_COMPLETE'],
  'response.match_mode': ['ALL', 'ANY'],
  'response.conditions[].aggregation': ['SINGLE', 'RUN_AVERAGE', 'RUN_FRACTION', 'JOB_SUCCESS', 'BASELINE_DEVIATION'],
  'response.conditions[].operator': ['GT', 'GTE', 'LT', 'LTE', 'EQ', 'NEQ'],
  'response.conditions[].match_mode': ['exact', 'contains', 'contains_case_insensitive'],
  'response.conditions[].direction': ['above', 'below', 'both'],
  'response.channels[].channel_type': ['SLACK', 'EMAIL', 'WEBHOOK', 'HUMAN_REVIEW'],
};
const E24 = ['ALL', 'UPLOADED', 'SIMULATED'];
const E23 = ['ALL', 'MONITORING', 'SIMULATION'];

const event = {
  ulid: 'str*',
  run_id: 'str*',
  outcome: 'str*',
  condition_results: 'arr',
  'condition_results[].metric_id': 'str*',
  'condition_results[].metric_display_name': 'str*',
  'condition_results[].aggregation': 'str*',
  'condition_results[].computed_value': 'any',
  'condition_results[].threshold': 'any',
  'condition_results[].operator': 'str*',
  'condition_results[].met': 'bool*',
  'condition_results[].metadata': 'map',
  dispatched_channels: 'arr',
  'dispatched_channels[].channel_type': 'str*',
  'dispatched_channels[].channel_summary': 'str*',
  'dispatched_channels[].success': 'bool*',
  'dispatched_channels[].error': 'str|null',
  message_sent: 'str|null',
  created_at: 'str*',
};
const testEvaluate = { run_id: 'str*', triggered: 'bool*', suppressed: 'bool', condition_results: 'arr', dispatch_results: 'arr', message: 'str' };
const page = { next_page_token: 'str|null', total_count: 'num*' };

export const rows: FactRow[] = [
  { fact: 'AL1', method: 'GET', path: '/alerts', status: 200, list: 'alerts', top: page, query: ['conversation_source', 'page_size', 'page_token'], response: canonical, enums: { ...enums, 'query.conversation_source': E24, 'response.conversation_source': E24 } },
  { fact: 'AL1 legacy', method: 'GET', path: '/monitors', status: 200, list: 'monitors', top: page, query: ['scope', 'page_size', 'page_token'], response: legacy, enums: { 'query.scope': E23, 'response.scope': E23 } },
  { fact: 'AL2', method: 'POST', path: '/alerts', status: 201, wrapper: null, body: { ...createBody, conversation_source: 'str' }, response: canonical, enums: { 'body.conversation_source': E24 } },
  { fact: 'AL2 legacy', method: 'POST', path: '/monitors', status: 201, wrapper: null, body: { ...createBody, scope: 'str' }, response: legacy, enums: { 'body.scope': E23 } },
  { fact: 'AL3', method: 'GET', path: '/alerts/{alert_id}', status: 200, wrapper: null, response: canonical, enums },
  { fact: 'AL3 legacy', method: 'GET', path: '/monitors/{monitor_id}', status: 200, wrapper: null, response: legacy },
  { fact: 'AL4', method: 'PATCH', path: '/alerts/{alert_id}', status: 200, wrapper: null, body: { ...updateBody, conversation_source: 'str' }, response: canonical },
  { fact: 'AL4 legacy', method: 'PATCH', path: '/monitors/{monitor_id}', status: 200, wrapper: null, body: { ...updateBody, scope: 'str' }, response: legacy },
  { fact: 'AL5', method: 'DELETE', path: '/alerts/{alert_id}', status: 204 },
  { fact: 'AL5 legacy', method: 'DELETE', path: '/monitors/{monitor_id}', status: 204 },
  { fact: 'AL6', method: 'GET', path: '/alerts/{alert_id}/events', status: 200, list: 'events', top: page, query: ['outcome', 'page_size', 'page_token'], response: { ...event, alert_ulid: 'str*' }, enums: { 'query.outcome': ['TRIGGERED', 'NOT_MET', 'SUPPRESSED', 'ERROR'], 'response.outcome': ['TRIGGERED', 'NOT_MET', 'SUPPRESSED', 'ERROR'] } },
  { fact: 'AL6 legacy', method: 'GET', path: '/monitors/{monitor_id}/events', status: 200, list: 'events', top: page, query: ['outcome', 'page_size', 'page_token'], response: { ...event, monitor_ulid: 'str*' } },
  { fact: 'AL7', method: 'POST', path: '/alerts/{alert_id}/test-evaluate', status: 200, body: { run_id: 'str*' }, top: { ...testEvaluate, alert_id: 'str*' } },
  { fact: 'AL7 legacy', method: 'POST', path: '/monitors/{monitor_id}/test-evaluate', status: 200, body: { run_id: 'str*' }, top: { ...testEvaluate, monitor_id: 'str*' } },
];
