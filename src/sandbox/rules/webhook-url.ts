// webhook-url: the url must be an absolute HTTP(S) URL (400 on field url); the auth token is kept for
// deliveries but only `has_auth_token` is ever shown.
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const webhookUrl: Rule = {
  write(ctx, next) {
    if (ctx.body.url !== undefined && (typeof ctx.body.url !== 'string' || !isHttpUrl(ctx.body.url))) throw invalid('url', 'must be an HTTP or HTTPS URL');
    if (ctx.body.auth_token === null) delete next.auth_token;
    setOwn(next, 'has_auth_token', typeof next.auth_token === 'string' && next.auth_token !== '');
  },
};
