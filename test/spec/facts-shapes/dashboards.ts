// facts-shapes 2.11 (dashboards) and 3.11 (resource), by hand.
import { type FactRow, type FieldSpec, f } from './row.js';

const DASHBOARD: Record<string, FieldSpec> = {
  name: { type: 'string', required: true },
  display_name: { type: 'string', nullable: true },
  description: { type: 'string', nullable: true },
  is_default: { type: 'boolean' },
  is_favorite: { type: 'boolean' },
  position: { type: 'number' },
  config: { type: 'object', nullable: true },
  create_time: { type: 'string', required: true },
  update_time: { type: 'string', required: true },
};

export const rows: FactRow[] = [
  { method: 'GET', path: '/dashboards', status: 200, wrapper: 'dashboards', query: ['page_size', 'page_token', 'order_by'], response: DASHBOARD },
  {
    method: 'POST',
    path: '/dashboards',
    status: 201,
    wrapper: 'dashboard',
    body: { display_name: f('string*'), description: f('string'), is_favorite: f('boolean'), is_default: f('boolean|null'), position: f('number'), config: f('object') },
    response: DASHBOARD,
  },
  { method: 'GET', path: '/dashboards/{dashboard_id}', status: 200, wrapper: 'dashboard', response: DASHBOARD },
  {
    method: 'PATCH',
    path: '/dashboards/{dashboard_id}',
    status: 200,
    wrapper: 'dashboard',
    body: {
      display_name: f('string|null'),
      description: f('string|null'),
      is_favorite: f('boolean|null'),
      is_default: f('boolean|null'),
      position: f('number|null'),
      config: f('object|null'),
    },
    response: DASHBOARD,
  },
  { method: 'DELETE', path: '/dashboards/{dashboard_id}', status: 200 },
];
