// api-facts-shapes.md §2.5 (UC1-UC7, legacy /conversations and canonical /conversations/uploaded), §3.5 (uploaded
// conversation, metric output), §1 (wrappers), §4 (E3, E5, E9), §5 and §6 items 1, 2, 8, 13, 17. Written by hand.
// Seed wins (§6 item 17): the PATCH body stays exactly one of audio_url | audio, so `metadata` is not listed for UC4.
import type { FactRow } from './row.js';

const conversation = {
  name: 'str*',
  conversation_id: 'str*',
  status: 'str*',
  create_time: 'str*',
  external_conversation_id: 'str|null',
  occurred_at: 'str|null',
  has_audio: 'bool',
  agent_id: 'str|null',
  persona_id: 'str|null',
  progress: 'map',
  'progress.total_metrics': 'num',
  'progress.completed_metrics': 'num',
  'progress.failed_metrics': 'num',
  'progress.in_progress_metrics': 'num',
  metadata: 'map',
  tags: 'arr',
  metric_ids: 'arr',
  metric_outputs: 'arr|null',
  metric_values: 'arr|null',
  'metric_values[].metric_id': 'str*',
  'metric_values[].value': 'any',
  error: 'str|null',
};
const E3 = ['PENDING', 'IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED', 'DELETED'];
const output = {
  metric_output_id: 'str*',
  metric_id: 'str*',
  metric_version_ulid: 'str|null',
  value: 'any',
  status: 'str*',
  status_reason: 'str|null',
  explanation: 'str|null',
  result: 'map|null',
};
const submit = {
  transcript: 'arr',
  'transcript[].role': 'str*',
  'transcript[].content': 'str|null',
  'transcript[].tool_calls': 'arr',
  audio_url: 'str',
  upload_id: 'str',
  metrics: 'arr',
  metadata: 'map',
  tags: 'arr',
  external_conversation_id: 'str',
  occurred_at: 'str',
  agent_id: 'str',
};

function both(fact: string, method: FactRow['method'], legacy: string, canonical: string, row: Omit<FactRow, 'fact' | 'method' | 'path'>, legacyRow: Partial<FactRow> = {}): FactRow[] {
  return [
    { fact, method, path: legacy, ...row, ...legacyRow },
    { fact: `${fact} canonical`, method, path: canonical, ...row },
  ];
}

export const rows: FactRow[] = [
  ...both('UC1', 'POST', '/conversations:submit', '/conversations/uploaded:submit', { status: 200, wrapper: 'uploaded_conversation', body: submit, response: conversation, enums: { 'response.status': E3, 'body.transcript[].role': ['user', 'assistant', 'system', 'tool'] } }, { wrapper: 'conversation' }),
  ...both('UC2', 'GET', '/conversations', '/conversations/uploaded', { status: 200, list: 'uploaded_conversations', top: { next_page_token: 'str|null' }, query: ['page_size', 'page_token', 'filter', 'order_by', 'metric_id', 'include', 'start_date', 'end_date', 'view', 'group_by_metadata', 'aggregation'], response: conversation, enums: { 'query.include': ['metric_outputs', 'metric_values'], 'query.view': ['metric_breakdown'], 'query.aggregation': ['success', 'avg'] } }, { list: 'conversations' }),
  ...both('UC3', 'GET', '/conversations/{conversation_id}', '/conversations/uploaded/{conversation_id}', { status: 200, wrapper: 'uploaded_conversation', query: ['include_progress'], response: conversation }, { wrapper: 'conversation' }),
  ...both('UC4', 'PATCH', '/conversations/{conversation_id}', '/conversations/uploaded/{conversation_id}', { status: 200, wrapper: 'uploaded_conversation', body: { audio_url: 'str', audio: 'str' }, response: conversation }, { wrapper: 'conversation' }),
  { fact: 'UC5', method: 'DELETE', path: '/conversations/{conversation_id}', status: 200, wrapper: 'conversation', response: conversation },
  { fact: 'UC5 canonical', method: 'DELETE', path: '/conversations/uploaded/{conversation_id}', status: 200 },
  ...both('UC6', 'GET', '/conversations/{conversation_id}/metrics', '/conversations/uploaded/{conversation_id}/metrics', { status: 200, list: 'metrics', top: { next_page_token: 'str|null' }, query: ['page_size', 'page_token'], response: output, enums: { 'response.status': ['IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'SKIPPED', 'FAILED', 'CANCELLED'] } }),
  ...both('UC7', 'GET', '/conversations/{conversation_id}/metrics/{metric_output_id}', '/conversations/uploaded/{conversation_id}/metrics/{metric_output_id}', { status: 200, wrapper: 'metric', response: output }),
  ...both('facts 2.2 audio', 'GET', '/conversations/{conversation_id}/audio', '/conversations/uploaded/{conversation_id}/audio', { status: 200, top: { audio_url: 'str*', conversation_id: 'str*', url_expires_in_seconds: 'num*', peaks_url: 'str|null' } }),
];
