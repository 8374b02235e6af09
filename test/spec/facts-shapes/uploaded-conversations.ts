// api-facts-shapes.md §2.5 (UC1-UC7, legacy /conversations and canonical /conversations/uploaded), §3.5 (uploaded
// conversation, metric output), §1 (wrappers), §4 (E3, E5, E9), §5 and §6 items 1, 2, 8, 13, 17. Written by hand.
// Seed wins (§6 item 17): the PATCH body stays exactly one of audio_url | audio, so `metadata` is not listed for UC4.
import { type FactRow, type Fields, f, withEnums } from './row.js';

const conversation: Fields = {
  name: { type: 'string', required: true },
  conversation_id: { type: 'string', required: true },
  status: { type: 'string', required: true },
  create_time: { type: 'string', required: true },
  external_conversation_id: { type: 'string', nullable: true },
  occurred_at: { type: 'string', nullable: true },
  has_audio: { type: 'boolean' },
  agent_id: { type: 'string', nullable: true },
  persona_id: { type: 'string', nullable: true },
  progress: { type: 'object' },
  'progress.total_metrics': { type: 'number' },
  'progress.completed_metrics': { type: 'number' },
  'progress.failed_metrics': { type: 'number' },
  'progress.in_progress_metrics': { type: 'number' },
  metadata: { type: 'object' },
  tags: { type: 'array' },
  metric_ids: { type: 'array' },
  metric_outputs: { type: 'array', nullable: true },
  metric_values: { type: 'array', nullable: true },
  'metric_values[].metric_id': { type: 'string', required: true },
  'metric_values[].value': {},
  error: { type: 'string', nullable: true },
};
const E3 = ['PENDING', 'IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED', 'DELETED'];
const output: Fields = {
  metric_output_id: { type: 'string', required: true },
  metric_id: { type: 'string', required: true },
  metric_version_ulid: { type: 'string', nullable: true },
  value: {},
  status: { type: 'string', required: true },
  status_reason: { type: 'string', nullable: true },
  explanation: { type: 'string', nullable: true },
  result: { type: 'object', nullable: true },
};
// UC1 in the facts' notation (none required) and §3.5's submit transcript message.
const submit: Fields = {
  // None required (the client's notation); api-facts.md 2.2 adds "at least one of transcript | audio_url | upload_id",
  // an anyOf of branches each requiring one, so their requiredness is not asserted here.
  transcript: { type: 'array', nullable: false },
  'transcript[].role': f('string*', ['user', 'assistant', 'system', 'tool']),
  'transcript[].content': f('string|null'),
  'transcript[].message': f('string'),
  'transcript[].tool_calls': f('array'),
  'transcript[].tool_calls[].id': f('string*'),
  'transcript[].tool_calls[].type': f('string*', ['function']),
  'transcript[].tool_calls[].function': f('object*'),
  'transcript[].tool_calls[].function.name': f('string*'),
  'transcript[].tool_calls[].function.arguments': f('string*'),
  'transcript[].tool_call_id': f('string'),
  'transcript[].start_time': f('number'),
  'transcript[].end_time': f('number'),
  'transcript[].timestamp': f('string'),
  'transcript[].firstWordStart': f('number'),
  'transcript[].lastWordEnd': f('number'),
  audio_url: { type: 'string', nullable: false },
  upload_id: { type: 'string', nullable: false },
  metrics: f('array'),
  metadata: f('object'),
  tags: f('array'),
  external_conversation_id: f('string'),
  occurred_at: f('string'),
  agent_id: f('string|null'),
};

function both(fact: string, method: FactRow['method'], legacy: string, canonical: string, row: Omit<FactRow, 'fact' | 'method' | 'path'>, legacyRow: Partial<FactRow> = {}): FactRow[] {
  return [
    { fact, method, path: legacy, ...row, ...legacyRow },
    { fact: `${fact} canonical`, method, path: canonical, ...row },
  ];
}

export const rows: FactRow[] = [
  ...both('UC1', 'POST', '/conversations:submit', '/conversations/uploaded:submit', { status: 200, wrapper: 'uploaded_conversation', body: submit, response: withEnums(conversation, { status: E3 }) }, { wrapper: 'conversation' }),
  ...both('UC2', 'GET', '/conversations', '/conversations/uploaded', { status: 200, wrapper: 'uploaded_conversations', top: { next_page_token: { type: 'string', nullable: true } }, query: ['page_size', 'page_token', 'filter', 'order_by', 'metric_id', 'include', 'start_date', 'end_date', 'view', 'group_by_metadata', 'aggregation'], response: conversation, queryEnums: { include: ['metric_outputs', 'metric_values'], view: ['metric_breakdown'], aggregation: ['success', 'avg'] } }, { wrapper: 'conversations' }),
  ...both('UC3', 'GET', '/conversations/{conversation_id}', '/conversations/uploaded/{conversation_id}', { status: 200, wrapper: 'uploaded_conversation', query: ['include_progress'], response: conversation }, { wrapper: 'conversation' }),
  ...both('UC4', 'PATCH', '/conversations/{conversation_id}', '/conversations/uploaded/{conversation_id}', { status: 200, wrapper: 'uploaded_conversation', body: { audio_url: { type: 'string' }, audio: { type: 'string' } }, response: conversation }, { wrapper: 'conversation' }),
  { fact: 'UC5', method: 'DELETE', path: '/conversations/{conversation_id}', status: 200, wrapper: 'conversation', response: conversation },
  { fact: 'UC5 canonical', method: 'DELETE', path: '/conversations/uploaded/{conversation_id}', status: 200 },
  ...both('UC6', 'GET', '/conversations/{conversation_id}/metrics', '/conversations/uploaded/{conversation_id}/metrics', { status: 200, wrapper: 'metrics', top: { next_page_token: { type: 'string', nullable: true } }, query: ['filter', 'page_size', 'page_token', 'order_by'], response: withEnums(output, { status: ['IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'SKIPPED', 'FAILED', 'CANCELLED'] }) }),
  ...both('UC7', 'GET', '/conversations/{conversation_id}/metrics/{metric_output_id}', '/conversations/uploaded/{conversation_id}/metrics/{metric_output_id}', { status: 200, wrapper: 'metric', response: output }),
  ...both('facts 2.2 audio', 'GET', '/conversations/{conversation_id}/audio', '/conversations/uploaded/{conversation_id}/audio', { status: 200, top: { audio_url: { type: 'string', required: true }, conversation_id: { type: 'string', required: true }, url_expires_in_seconds: { type: 'number', required: true }, peaks_url: { type: 'string', nullable: true } } }),
];
