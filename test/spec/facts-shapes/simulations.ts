// api-facts-shapes.md §2.4 (SC1-SC9, legacy /simulations and canonical /conversations/simulated), §3.4 (simulated
// conversation, metric output), §1 (wrappers), §4 (E4, E5, E35, E38), §6 items 1, 13, 14. Written by hand.
import type { FactRow } from './row.js';

const summary = {
  name: 'str*',
  simulation_id: 'str*',
  run_id: 'str*',
  status: 'str*',
  create_time: 'str*',
  has_audio: 'bool*',
  agent_id: 'str|null',
  persona_id: 'str|null',
  test_set_id: 'str|null',
  test_case_id: 'str|null',
  source: 'map|null',
  destination: 'map|null',
  error_message: 'str|null',
  mutation_id: 'str|null',
  mutation_name: 'str|null',
  notes: 'str|null',
  is_public: 'bool',
  metric_values: 'map|null',
};
const full = { ...summary, transcript: 'arr|null', 'transcript[].role': 'str*', 'transcript[].content': 'any*', 'transcript[].start_offset': 'num', 'transcript[].end_offset': 'num' };
const E4 = ['PENDING', 'IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED', 'DELETED'];
const output = {
  metric_output_id: 'str*',
  metric_id: 'str*',
  metric_version_ulid: 'str|null',
  value: 'any',
  status: 'str*',
  status_reason: 'str|null',
  explanation: 'str|null',
  subvalues_by_timestamp: 'arr|null',
  result: 'map|null',
  runtime_metadata: 'map|null',
};
const E5 = ['IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'SKIPPED', 'FAILED', 'CANCELLED'];
const listQuery = ['filter', 'page_size', 'page_token', 'order_by', 'include'];
const rerunAnswer = { results: 'arr*', 'results[].simulation_id': 'str*', 'results[].status': 'str*', 'results[].error': 'str|null', queued_count: 'num*', failed_count: 'num*' };
const audio = { audio_url: 'str*', peaks_url: 'str|null', simulation_id: 'str*', url_expires_in_seconds: 'num*' };
const resimulated = { simulation_id: 'str*', run_id: 'str*', queued: 'bool*', message: 'str*' };

function both(fact: string, method: FactRow['method'], tail: string, row: Omit<FactRow, 'fact' | 'method' | 'path'>, legacyRow: Partial<FactRow> = {}): FactRow[] {
  return [
    { fact, method, path: `/simulations${tail}`, ...row, ...legacyRow },
    { fact: `${fact} canonical`, method, path: `/conversations/simulated${tail}`, ...row },
  ];
}

export const rows: FactRow[] = [
  ...both('SC1', 'GET', '', { status: 200, list: 'simulated_conversations', top: { next_page_token: 'str|null' }, query: listQuery, response: summary, enums: { 'query.include': ['metric_values'], 'response.status': E4 } }, { list: 'simulations' }),
  ...both('SC2', 'GET', '/{simulation_id}', { status: 200, wrapper: 'simulated_conversation', response: full }, { wrapper: 'simulation' }),
  ...both('SC3', 'PATCH', '/{simulation_id}', { status: 200, wrapper: 'simulated_conversation', body: { is_public: 'bool|null', notes: 'str|null' }, response: full }, { wrapper: 'simulation' }),
  ...both('SC4', 'DELETE', '/{simulation_id}', { status: 200 }),
  ...both('SC5', 'GET', '/{simulation_id}/audio', { status: 200, top: audio }),
  { fact: 'SC6', method: 'POST', path: '/simulations:rerunMetrics', status: 202, body: { simulation_ids: 'arr*', metric_ids: 'arr*' }, top: rerunAnswer },
  { fact: 'SC6 207', method: 'POST', path: '/simulations:rerunMetrics', status: 207 },
  { fact: 'SC6 canonical', method: 'POST', path: '/conversations/simulated:rerunMetrics', status: 202, body: { simulation_ids: 'arr*', metric_ids: 'arr*' }, top: rerunAnswer, enums: {} },
  ...both('SC7', 'POST', '/{simulation_id}/resimulate', { status: 200, top: resimulated }),
  ...both('SC8', 'GET', '/{simulation_id}/metrics', { status: 200, list: 'metrics', top: { next_page_token: 'str|null' }, query: ['page_size', 'page_token'], response: output, enums: { 'response.status': E5 } }),
  ...both('SC9', 'GET', '/{simulation_id}/metrics/{metric_output_id}', { status: 200, wrapper: 'metric', response: output }),
];
