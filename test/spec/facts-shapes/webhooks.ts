// facts-shapes 2.9 (webhooks), 3.9 (resource) and E36, by hand. POST /webhooks: the seed's 200 wins over the
// client's 201.
import { type FactRow, type FieldSpec, f } from './row.js';

const WEBHOOK: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  id: { type: 'string', required: true },
  type: { type: 'string', required: true, enum: ['job_complete'] },
  url: { type: 'string', required: true },
  create_time: { type: 'string', required: true },
  last_triggered_at: { type: 'string', nullable: true },
  has_auth_token: { type: 'boolean', required: true },
};

export const rows: FactRow[] = [
  { method: 'GET', path: '/webhooks', status: 200, wrapper: 'webhooks', response: WEBHOOK },
  {
    method: 'POST',
    path: '/webhooks',
    status: 200,
    seed: 'the seed answers POST /webhooks with 200 (the service client: 201)',
    wrapper: 'webhook',
    body: { type: f('string*', ['job_complete']), url: f('string*'), auth_token: f('string|null') },
    response: WEBHOOK,
  },
  {
    method: 'PATCH',
    path: '/webhooks/{webhook_id}',
    status: 200,
    wrapper: 'webhook',
    body: { type: f('string|null', ['job_complete']), url: f('string|null'), auth_token: f('string|null') },
    response: WEBHOOK,
  },
  { method: 'DELETE', path: '/webhooks/{webhook_id}', status: 200, response: { success: { type: 'boolean', required: true } } },
];
