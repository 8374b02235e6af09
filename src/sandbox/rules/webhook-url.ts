// webhook-url: the url must be an absolute HTTP(S) URL (400 on field url); the auth token is kept for
// deliveries but only `has_auth_token` is ever shown (auth_token null clears it: the engine's x-null clear).
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';

const HTTP_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/** Whether `value` parses as an http: or https: URL (the URL parser refuses these schemes without a host). */
export function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && HTTP_PROTOCOLS.has(new URL(value).protocol);
}

export const webhookUrl: Rule = {
  write(ctx, next) {
    // The validators hold url to a string (when given).
    if (typeof ctx.body.url === 'string' && !isHttpUrl(ctx.body.url)) throw invalid('url', 'must be an HTTP or HTTPS URL');
    setOwn(next, 'has_auth_token', typeof next.auth_token === 'string' && next.auth_token !== '');
  },
};
