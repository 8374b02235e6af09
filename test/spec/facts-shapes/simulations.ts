// api-facts-shapes.md §2.4 (SC1-SC9, legacy /simulations and canonical /conversations/simulated), §3.4 (simulated
// conversation, metric output), §1 (wrappers), §4 (E4, E5, E35, E38), §6 items 1, 13, 14. Written by hand.
import { type FactRow, type Fields, f, withEnums } from './row.js';

const summary: Fields = {
  name: { type: 'string', required: true },
  simulation_id: { type: 'string', required: true },
  run_id: { type: 'string', required: true },
  status: { type: 'string', required: true },
  create_time: { type: 'string', required: true },
  has_audio: { type: 'boolean', required: true },
  agent_id: { type: 'string', nullable: true },
  persona_id: { type: 'string', nullable: true },
  test_set_id: { type: 'string', nullable: true },
  test_case_id: { type: 'string', nullable: true },
  source: { type: 'object', nullable: true },
  destination: { type: 'object', nullable: true },
  error_message: { type: 'string', nullable: true },
  mutation_id: { type: 'string', nullable: true },
  mutation_name: { type: 'string', nullable: true },
  notes: { type: 'string', nullable: true },
  is_public: { type: 'boolean' },
  metric_values: { type: 'object', nullable: true },
};
const full: Fields = { ...summary, transcript: { type: 'array', nullable: true }, 'transcript[].role': { type: 'string', required: true }, 'transcript[].content': { required: true }, 'transcript[].start_offset': { type: 'number' }, 'transcript[].end_offset': { type: 'number' } };
const E4 = ['PENDING', 'IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED', 'DELETED'];
const output: Fields = {
  metric_output_id: { type: 'string', required: true },
  metric_id: { type: 'string', required: true },
  metric_version_ulid: { type: 'string', nullable: true },
  value: {},
  status: { type: 'string', required: true },
  status_reason: { type: 'string', nullable: true },
  explanation: { type: 'string', nullable: true },
  subvalues_by_timestamp: { type: 'array', nullable: true },
  result: { type: 'object', nullable: true },
  runtime_metadata: { type: 'object', nullable: true },
};
const E5 = ['IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'SKIPPED', 'FAILED', 'CANCELLED'];
const listQuery = ['filter', 'page_size', 'page_token', 'order_by', 'include'];
const rerunAnswer: Fields = { results: { type: 'array', required: true }, 'results[].simulation_id': { type: 'string', required: true }, 'results[].status': { type: 'string', required: true }, 'results[].error': { type: 'string', nullable: true }, queued_count: { type: 'number', required: true }, failed_count: { type: 'number', required: true } };
const audio: Fields = { audio_url: { type: 'string', required: true }, peaks_url: { type: 'string', nullable: true }, simulation_id: { type: 'string', required: true }, url_expires_in_seconds: { type: 'number', required: true } };
const resimulated: Fields = { simulation_id: { type: 'string', required: true }, run_id: { type: 'string', required: true }, queued: { type: 'boolean', required: true }, message: { type: 'string', required: true } };

function both(fact: string, method: FactRow['method'], tail: string, row: Omit<FactRow, 'fact' | 'method' | 'path'>, legacyRow: Partial<FactRow> = {}): FactRow[] {
  return [
    { fact, method, path: `/simulations${tail}`, ...row, ...legacyRow },
    { fact: `${fact} canonical`, method, path: `/conversations/simulated${tail}`, ...row },
  ];
}

export const rows: FactRow[] = [
  ...both('SC1', 'GET', '', { status: 200, wrapper: 'simulated_conversations', top: { next_page_token: { type: 'string', nullable: true } }, query: listQuery, response: withEnums(summary, { status: E4 }), queryEnums: { include: ['metric_values'] } }, { wrapper: 'simulations' }),
  ...both('SC2', 'GET', '/{simulation_id}', { status: 200, wrapper: 'simulated_conversation', response: full }, { wrapper: 'simulation' }),
  ...both('SC3', 'PATCH', '/{simulation_id}', { status: 200, wrapper: 'simulated_conversation', body: { is_public: f('boolean|null'), notes: f('string|null') }, response: full }, { wrapper: 'simulation' }),
  ...both('SC4', 'DELETE', '/{simulation_id}', { status: 200 }),
  ...both('SC5', 'GET', '/{simulation_id}/audio', { status: 200, top: audio }),
  { fact: 'SC6', method: 'POST', path: '/simulations:rerunMetrics', status: 202, body: { simulation_ids: f('array*'), metric_ids: f('array*') }, top: rerunAnswer },
  { fact: 'SC6 207', method: 'POST', path: '/simulations:rerunMetrics', alsoStatus: [207] },
  { fact: 'SC6 canonical', method: 'POST', path: '/conversations/simulated:rerunMetrics', status: 202, body: { simulation_ids: f('array*'), metric_ids: f('array*') }, top: rerunAnswer },
  ...both('SC7', 'POST', '/{simulation_id}/resimulate', { status: 200, top: resimulated }),
  ...both('SC8', 'GET', '/{simulation_id}/metrics', { status: 200, wrapper: 'metrics', top: { next_page_token: { type: 'string', nullable: true } }, query: ['filter', 'page_size', 'page_token', 'order_by'], response: withEnums(output, { status: E5 }) }),
  ...both('SC9', 'GET', '/{simulation_id}/metrics/{metric_output_id}', { status: 200, wrapper: 'metric', response: output }),
];
