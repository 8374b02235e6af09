// facts-shapes 2.13 (runs) and 3.13 (run resource), by hand.
import type { FactRow, FieldSpec } from './row.js';

const RUN: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  run_id: { type: 'string', required: true },
  display_name: { type: 'string', nullable: true },
  is_public: { type: 'boolean' },
  status: { type: 'string', required: true, enum: ['PENDING', 'IN QUEUE', 'IN PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED', 'DELETED'] },
  create_time: { type: 'string', required: true },
  update_time: { type: 'string', nullable: true },
  agent_id: { type: 'string', nullable: true },
  persona_id: { type: 'string', nullable: true },
  test_set_id: { type: 'string', nullable: true },
  tags: { type: 'array' },
  progress: { type: 'object', nullable: true },
  results: { type: 'object', nullable: true },
  metadata: { type: 'object' },
  error: { type: 'string', nullable: true },
  error_status: { type: 'string', nullable: true },
  metric_averages: { type: 'object', nullable: true },
};

export const rows: FactRow[] = [
  {
    method: 'POST',
    path: '/runs',
    status: 200,
    wrapper: 'run',
    body: {
      agent_id: { type: 'string', required: true },
      persona_id: { type: 'string', required: true },
      test_set_id: { type: 'string', required: true },
      metric_ids: { type: 'array' },
      mutation_id: { type: 'string', nullable: true },
      mutation_ids: { type: 'array' },
      persona_metrics: { type: 'array' },
      options: { type: 'object' },
      metadata: { type: 'object' },
    },
    response: RUN,
  },
  { method: 'GET', path: '/runs', status: 200, wrapper: 'runs', query: ['filter', 'page_size', 'page_token', 'order_by', 'include'], response: RUN },
  { method: 'GET', path: '/runs/{run_id}', status: 200, wrapper: 'run', response: RUN },
  { method: 'PATCH', path: '/runs/{run_id}', status: 200, wrapper: 'run', body: { tags: { type: 'array', required: true } }, response: RUN },
  { method: 'DELETE', path: '/runs/{run_id}', status: 200 },
  { method: 'GET', path: '/runs/tags', status: 200, wrapper: 'tags', response: { tag: { type: 'string', required: true }, color: { type: 'string', nullable: true } } },
];
