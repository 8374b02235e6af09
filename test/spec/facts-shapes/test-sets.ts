// Test sets family, transcribed by hand from api-facts-shapes.md 2.12 (operations), 3.12 (resources) and 4 (E2).
// Requiredness is asserted only where the facts mark a field `*`; `|null` is asserted as nullable.
import { type FactRow, type FieldSpec, f } from './row.js';

const str: FieldSpec = { type: 'string' };
const strNull: FieldSpec = { type: 'string', nullable: true };

// 3.12 Test set (none required in the client)
const testSet: Record<string, FieldSpec> = {
  name: str,
  id: str,
  slug: str,
  display_name: str,
  description: strNull,
  test_set_type: strNull,
  test_set_metadata: { type: 'object' },
  parameters: { type: 'object' },
  test_case_count: { type: 'number' },
  tags: { type: 'array' },
  create_time: str,
  update_time: strNull,
};

const testSetVersion: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  ulid: { type: 'string', required: true },
  version_number: { type: 'number', required: true },
  change_type: { type: 'string', required: true, enum: ['save', 'revert'] },
  label: strNull,
  test_set_type: strNull,
  test_set_metadata: { type: 'object' },
  parameters: { type: 'object' },
  test_cases: { type: 'array' },
  created_by: { type: 'string', required: true },
  create_time: strNull,
};

const agent: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  agent_id: { type: 'string', required: true },
  display_name: { type: 'string', required: true },
};

const record: Record<string, FieldSpec> = {
  id: { type: 'string', required: true },
  input: { type: 'string', required: true },
  input_type: strNull,
  expected_behaviors: { type: 'array' },
  description: strNull,
  user_notes: strNull,
  create_time: strNull,
  update_time: strNull,
  test_set_id: strNull,
};

// TS2 in the facts' notation; TS4: the same 7 fields, all optional, same nullability.
const createBody: Record<string, FieldSpec> = {
  display_name: f('string*'),
  slug: f('string'),
  description: f('string|null'),
  test_set_type: f('string'),
  test_set_metadata: f('object'),
  parameters: f('object'),
  tags: f('array|null'),
};
const updateBody: Record<string, FieldSpec> = Object.fromEntries(Object.entries(createBody).map(([k, v]) => [k, { ...v, required: false }]));

export const rows: FactRow[] = [
  { fact: 'TS1', method: 'GET', path: '/test-sets', status: 200, wrapper: 'test_sets', response: testSet, query: ['filter', 'page_size', 'page_token', 'order_by', 'tag_filters'] },
  { fact: 'TS2', method: 'POST', path: '/test-sets', status: 201, wrapper: 'test_set', body: createBody, response: testSet },
  { fact: 'TS3', method: 'GET', path: '/test-sets/{test_set_id}', status: 200, wrapper: 'test_set', response: testSet },
  { fact: 'TS4', method: 'PATCH', path: '/test-sets/{test_set_id}', status: 200, wrapper: 'test_set', body: updateBody, response: testSet },
  { fact: 'TS5', method: 'DELETE', path: '/test-sets/{test_set_id}', status: 200 },
  { fact: 'TS6', method: 'GET', path: '/test-sets/{test_set_id}/versions', status: 200, wrapper: 'versions', response: testSetVersion },
  { fact: 'TS7', method: 'POST', path: '/test-sets/{test_set_id}/versions/{version_id}/revert', status: 200, wrapper: 'test_set', response: testSet },
  { fact: 'TS8', method: 'POST', path: '/test-sets/{test_set_id}/duplicate', status: 201, wrapper: 'test_set', response: testSet },
  { fact: 'TS9', method: 'GET', path: '/test-sets/{test_set_id}/agents', status: 200, wrapper: 'agents', response: agent },
  { fact: 'TS10', method: 'POST', path: '/test-sets/{test_set_id}/agents:add', status: 200, wrapper: 'agents', body: { agent_ids: f('array*') }, response: agent },
  { fact: 'TS11', method: 'DELETE', path: '/test-sets/{test_set_id}/agents/{agent_id}', status: 200 },
  { fact: 'TS12', method: 'GET', path: '/test-sets/{test_set_id}/records', status: 200, wrapper: 'records', response: record },
];
