// facts-shapes 2.2 (agents), 3.2 (resource) and E1, by hand. The resource's nullability differences listed in 3.2
// (phone_number, endpoint, prompt, language, attributes, update_time) are not asserted: spec/ does not follow them yet.
import type { FactRow, FieldSpec } from './row.js';

const MODEL_TYPES = [
  'MODEL_TYPE_VOICE',
  'MODEL_TYPE_OUTBOUND_VOICE',
  'MODEL_TYPE_CHAT',
  'MODEL_TYPE_CHAT_A2A',
  'MODEL_TYPE_CHAT_WEBSOCKET',
  'MODEL_TYPE_SMS',
  'MODEL_TYPE_WEBSOCKET',
  'MODEL_TYPE_LIVEKIT',
  'MODEL_TYPE_DAILY',
  'MODEL_TYPE_OPENAI_REALTIME',
  'MODEL_TYPE_GEMINI_REALTIME',
  'MODEL_TYPE_GROK_REALTIME',
];

const AGENT: Record<string, FieldSpec> = {
  id: { type: 'string' },
  customer_agent_id: { type: 'string', required: true },
  display_name: { type: 'string' },
  model_type: { type: 'string', enum: MODEL_TYPES },
  phone_number: { type: 'string' },
  endpoint: { type: 'string' },
  prompt: { type: 'string' },
  language: { type: 'string' },
  attributes: { type: 'object' },
  metadata: { type: 'object' },
  workflows: { type: 'object' },
  metric_ids: { type: 'array' },
  test_set_ids: { type: 'array' },
  knowledge_base_ids: { type: 'array' },
  tags: { type: 'array' },
  create_time: { type: 'string' },
  update_time: { type: 'string' },
};

export const rows: FactRow[] = [
  { method: 'GET', path: '/agents', status: 200, wrapper: 'agents', query: ['filter', 'page_size', 'page_token', 'order_by', 'tag_filters'], response: AGENT },
  {
    method: 'POST',
    path: '/agents',
    status: 201,
    wrapper: 'agent',
    body: {
      display_name: { type: 'string', required: true },
      model_type: { type: 'string', required: true, enum: MODEL_TYPES },
      phone_number: { type: 'string', nullable: true },
      endpoint: { type: 'string', nullable: true },
      prompt: { type: 'string', nullable: true },
      customer_agent_id: { type: 'string', nullable: true },
      language: { type: 'string', nullable: true },
      attributes: { type: 'object', nullable: true },
      metadata: { type: 'object' },
      workflows: { type: 'object' },
      metric_ids: { type: 'array' },
      test_set_ids: { type: 'array' },
      tags: { type: 'array', nullable: true },
    },
    response: AGENT,
  },
  { method: 'GET', path: '/agents/{agent_id}', status: 200, wrapper: 'agent', response: AGENT },
  {
    method: 'PATCH',
    path: '/agents/{agent_id}',
    status: 200,
    wrapper: 'agent',
    body: { display_name: { type: 'string' }, model_type: { type: 'string', enum: MODEL_TYPES }, metric_ids: { type: 'array' }, test_set_ids: { type: 'array' }, metadata: { type: 'object' }, workflows: { type: 'object' } },
    response: AGENT,
  },
  { method: 'DELETE', path: '/agents/{agent_id}', status: 200 },
  { method: 'POST', path: '/agents/{agent_id}/duplicate', status: 201, wrapper: 'agent', body: { include_associations: { type: 'boolean' } }, response: AGENT },
  {
    method: 'GET',
    path: '/agents/{agent_id}/versions',
    status: 200,
    wrapper: 'versions',
    response: { name: { type: 'string', required: true }, ulid: { type: 'string', required: true }, version_number: { type: 'number', required: true }, change_type: { type: 'string', required: true, enum: ['save', 'revert'] }, created_by: { type: 'string', required: true } },
  },
  { method: 'POST', path: '/agents/{agent_id}/versions/{version_id}/revert', status: 200, wrapper: 'agent', response: AGENT },
];
