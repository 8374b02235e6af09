// facts-shapes 2.6 (tags) and 3.6 (resource), by hand.
import { type FactRow, type FieldSpec, f } from './row.js';

const TAG: Record<string, FieldSpec> = {
  name: { type: 'string' },
  id: { type: 'string' },
  tag_name: { type: 'string' },
  color: { type: 'string', nullable: true },
  create_time: { type: 'string' },
  created_by: { type: 'string', nullable: true },
};

export const rows: FactRow[] = [
  { method: 'GET', path: '/tags', status: 200, wrapper: 'tags', query: ['page_size', 'page_token'], response: TAG },
  { method: 'POST', path: '/tags', status: 201, wrapper: 'tag', body: { tag_name: f('string*'), color: f('string|null') }, response: TAG },
  { method: 'GET', path: '/tags/{tag_id}', status: 200, wrapper: 'tag', response: TAG },
  { method: 'PATCH', path: '/tags/{tag_id}', status: 200, wrapper: 'tag', body: { tag_name: f('string|null'), color: f('string|null') }, response: TAG },
  { method: 'DELETE', path: '/tags/{tag_id}', status: 200, wrapper: 'tag', response: TAG },
];
