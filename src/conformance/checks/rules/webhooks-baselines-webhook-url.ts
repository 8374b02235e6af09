// Rule webhook-url (createWebhook, updateWebhook): which urls are accepted, and has_auth_token.
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import type { Check, CheckContext } from '../context.js';
import { enumOf, isRuleOperation, routeOf, successRecord } from './webhooks-baselines-support.js';

const RULE = 'webhook-url';

function jobComplete(ctx: CheckContext): string {
  return enumOf(ctx.suite, 'WebhookType')[0]!;
}

async function createWebhook(ctx: CheckContext, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const route = routeOf(ctx, 'webhook', 'create');
  return successRecord(await send(ctx.target, route, { body: { type: jobComplete(ctx), ...body } }), route, `creating a webhook with ${JSON.stringify(body)}`);
}

async function updateWebhook(ctx: CheckContext, route: Route, id: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  return successRecord(await send(ctx.target, route, { path: { webhook_id: id }, body }), route, `updating the webhook with ${JSON.stringify(body)}`);
}

function expectHasToken(webhook: Record<string, unknown>, expected: boolean, what: string): void {
  if (webhook.has_auth_token !== expected) fail(`${what}: expected has_auth_token ${expected}, got ${String(webhook.has_auth_token)}`);
}

// URLs the schema's pattern lets through but that are no HTTP(S) URL: no host, a space in the host.
const NOT_URLS = ['http://', 'https://exa mple.com/hook'];

export const urlsAccepted: Check = {
  name: `rule ${RULE}: http and https URLs are accepted, one without a valid host is 400 on url`,
  applies: (route, suite) => isRuleOperation(route, suite, 'webhook', 'create', RULE),
  async run(ctx) {
    // Seed, Webhooks: `url` string 1-200 chars, HTTP(S); Errors 5: webhook url not HTTP(S): 400 on field url.
    for (const url of ['http://hooks.example.com/plain', 'https://hooks.example.com/secure']) {
      const webhook = await createWebhook(ctx, { url });
      if (webhook.url !== url) fail(`expected the webhook to keep url ${url}, got ${String(webhook.url)}`);
    }
    for (const url of NOT_URLS) {
      expectError(await send(ctx.target, ctx.route, { body: { type: jobComplete(ctx), url } }), 400, 'INVALID_ARGUMENT', 'url', `creating a webhook with url ${JSON.stringify(url)}`);
    }
  },
};

export const tokenFlagOnCreate: Check = {
  name: `rule ${RULE}: has_auth_token is true exactly when a non-empty auth_token is registered`,
  applies: (route, suite) => isRuleOperation(route, suite, 'webhook', 'create', RULE),
  async run(ctx) {
    // Seed, Webhook: has_auth_token boolean; the token itself is never returned.
    const url = 'https://hooks.example.com/token-flag';
    expectHasToken(await createWebhook(ctx, { url }), false, 'a webhook created without auth_token');
    const token = `conformance-secret-${ctx.world.nextSeed()}`;
    const withToken = await createWebhook(ctx, { url, auth_token: token });
    expectHasToken(withToken, true, 'a webhook created with an auth_token');
    if (JSON.stringify(withToken).includes(token)) fail('the created webhook shows its auth_token');
    // The spec's X-Webhook-Token header has minLength 1, so an empty token is no token (sandbox's reading).
    expectHasToken(await createWebhook(ctx, { url, auth_token: '' }), false, 'a webhook created with an empty auth_token');
  },
};

export const tokenFlagOnUpdate: Check = {
  name: `rule ${RULE}: an update keeps an omitted token, replaces it, clears it with null, and checks a new url`,
  applies: (route, suite) => isRuleOperation(route, suite, 'webhook', 'update', RULE),
  async run(ctx) {
    const webhook = await createWebhook(ctx, { url: 'https://hooks.example.com/update', auth_token: 'first-secret' });
    const id = String(webhook.id);
    // spec UpdateWebhookRequest: omitted fields keep their values; auth_token null removes the token.
    expectHasToken(await updateWebhook(ctx, ctx.route, id, { auth_token: 'second-secret' }), true, 'after replacing the token (no url in the body)');
    const moved = await updateWebhook(ctx, ctx.route, id, { url: 'http://hooks.example.com/moved' });
    expectHasToken(moved, true, 'after changing only the url');
    if (moved.url !== 'http://hooks.example.com/moved') fail(`expected the new url http://hooks.example.com/moved, got ${String(moved.url)}`);
    expectHasToken(await updateWebhook(ctx, ctx.route, id, { auth_token: null }), false, 'after auth_token null');
    for (const url of NOT_URLS) {
      expectError(await send(ctx.target, ctx.route, { path: { webhook_id: id }, body: { url } }), 400, 'INVALID_ARGUMENT', 'url', `updating the webhook to url ${JSON.stringify(url)}`);
    }
  },
};

export const webhookUrlChecks: Check[] = [urlsAccepted, tokenFlagOnCreate, tokenFlagOnUpdate];
