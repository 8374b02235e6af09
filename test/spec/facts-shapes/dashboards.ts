// facts-shapes 2.11 (dashboards) and 3.11 (resource), by hand.
import type { FactRow, FieldSpec } from './row.js';

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
    body: { display_name: { type: 'string', required: true }, description: { type: 'string' }, is_favorite: { type: 'boolean' }, is_default: { type: 'boolean', nullable: true }, position: { type: 'number' }, config: { type: 'object' } },
    response: DASHBOARD,
  },
  { method: 'GET', path: '/dashboards/{dashboard_id}', status: 200, wrapper: 'dashboard', response: DASHBOARD },
  {
    method: 'PATCH',
    path: '/dashboards/{dashboard_id}',
    status: 200,
    wrapper: 'dashboard',
    body: {
      display_name: { type: 'string', nullable: true },
      description: { type: 'string', nullable: true },
      is_favorite: { type: 'boolean', nullable: true },
      is_default: { type: 'boolean', nullable: true },
      position: { type: 'number', nullable: true },
      config: { type: 'object', nullable: true },
    },
    response: DASHBOARD,
  },
  { method: 'DELETE', path: '/dashboards/{dashboard_id}', status: 200 },
];
