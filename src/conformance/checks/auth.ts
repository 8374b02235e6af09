// Authentication and permissions, on every operation: 401 UNAUTHENTICATED on X-API-Key for a missing and for
// an unknown key, the key header's name in any case, 403 PERMISSION_DENIED on `permissions` for a key without
// the operation's permission, and no key needed where the spec says so.
import { expectEnvelope, expectError, send } from '../http.js';
import { headerValue } from '../credential.js';
import { fail, skip } from '../result.js';
import type { Check } from './context.js';

async function pathOrPlaceholder(ctx: Parameters<Check['run']>[0]): Promise<Record<string, string>> {
  // Auth is checked before the resource is looked up: any well-formed id will do.
  const path: Record<string, string> = {};
  for (const p of ctx.route.params.path) path[p.name] = 'A'.repeat(22);
  return path;
}

export const missingKey: Check = {
  name: 'auth: missing key is 401 on X-API-Key',
  needs: 'an operation that needs a credential (security)',
  applies: (route) => route.auth.length > 0,
  async run(ctx) {
    const answer = await send(ctx.target, ctx.route, { path: await pathOrPlaceholder(ctx), key: null, ...(ctx.route.body ? { body: {} } : {}) });
    expectError(answer, 401, 'UNAUTHENTICATED', ctx.route.auth[0]!);
    expectEnvelope(answer, 'no key');
  },
};

export const unknownKey: Check = {
  name: 'auth: unknown key is 401 on X-API-Key',
  needs: 'an operation that needs a credential (security)',
  applies: (route) => route.auth.length > 0,
  async run(ctx) {
    const answer = await send(ctx.target, ctx.route, { path: await pathOrPlaceholder(ctx), key: 'sk_conformance_unknown_key', ...(ctx.route.body ? { body: {} } : {}) });
    expectError(answer, 401, 'UNAUTHENTICATED', ctx.route.auth[0]!);
    expectEnvelope(answer, 'an unknown key');
  },
};

export const headerCase: Check = {
  name: 'auth: the key header name is case-insensitive',
  needs: 'a GET operation whose credential is a header',
  // A path of an operation answered with its example names no record the suite could have made (issue 27).
  // Header names only: a query parameter's or a cookie's name is case-sensitive.
  applies: (route) => route.credentials[0]?.in === 'header' && route.method === 'GET' && (route.example === null || route.params.path.length === 0),
  async run(ctx) {
    const { path } = await ctx.world.pathFor(ctx.route);
    const place = ctx.route.credentials[0]!;
    for (const name of [place.name.toLowerCase(), place.name.toUpperCase()]) {
      const answer = await send(ctx.target, ctx.route, { path, key: null, headers: { [name]: headerValue(place, ctx.target.apiKey) } });
      if (answer.status === 401) fail(`the key sent as ${name} was not accepted: ${answer.text.slice(0, 200)}`);
    }
  },
};

export const permission: Check = {
  name: 'auth: a key without the permission is 403 on permissions',
  needs: 'an operation with permissions (x-permission)',
  applies: (route) => route.auth.length > 0 && route.permissions.length > 0,
  async run(ctx) {
    const key = ctx.target.noPermissionKey ?? (ctx.target.control ? await ctx.target.control.createApiKey([]) : undefined);
    if (!key) skip('needs a key without permissions (--no-permission-key) or the control plane');
    const answer = await send(ctx.target, ctx.route, { path: await pathOrPlaceholder(ctx), key, ...(ctx.route.body ? { body: {} } : {}) });
    expectError(answer, 403, 'PERMISSION_DENIED', 'permissions');
    expectEnvelope(answer, 'a key without permissions');
    // docs/sandbox.md "Protocol": "the message names the first missing permission" (seed: alerts:read is quoted in the
    // alert update's 403 message).
    if (!answer.text.includes(ctx.route.permissions[0]!)) fail(`the 403 does not name the missing permission ${ctx.route.permissions[0]}: ${answer.text.slice(0, 200)}`);
    // With every permission but the first one the operation needs, it is still 403.
    if (ctx.target.control && ctx.route.permissions.length > 1) {
      const partial = await ctx.target.control.createApiKey(ctx.route.permissions.slice(1));
      expectError(await send(ctx.target, ctx.route, { path: await pathOrPlaceholder(ctx), key: partial, ...(ctx.route.body ? { body: {} } : {}) }), 403, 'PERMISSION_DENIED', 'permissions', 'a key missing one of the permissions');
    }
  },
};

export const noKeyNeeded: Check = {
  name: 'auth: no key is needed',
  needs: 'a public operation (security: [])',
  applies: (route) => route.auth.length === 0,
  async run(ctx) {
    // A public delete (petstore's deleteOrder) removes what it names: a record of its own, not the shared one.
    const { path } = await ctx.world.pathFor(ctx.route, { fresh: ctx.route.action === 'delete' });
    const answer = await send(ctx.target, ctx.route, { path, key: null });
    if (answer.status === 401 || answer.status === 403) fail(`answered ${answer.status} without a key`);
  },
};
