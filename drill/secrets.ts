// Secrets: webhook auth tokens and API keys never appear in an API answer (body or headers, success or error)
// or in a line the sandbox writes. Runs last: it scans every exchange of every drill of the run (the fuzz's
// thousands included) and every line of every sandbox process started (the crash drill's too).
//
// It first makes tokens travel: webhooks with tokens (delivered, failing with retries, unreachable, token
// replaced, token removed), an alert with a WEBHOOK channel carrying a token (then replaced), runs completed
// through the control plane and a conversation submitted, so deliveries happen; every delivery goes to a local
// receiver, where the right token must arrive (and a replaced or removed one must not). Requests that carry a
// token or a key where it does not belong (too long, wrong URL, a key with a suffix) probe the error paths.
//
// Not scanned: the control plane's answers (admin-only; its sent log shows delivery headers by design) and the
// sandbox's `--json` start-up line (it prints the development key and the admin token by design).
import { prepare } from '../src/conformance/checks/happy.js';
import { clip, DrillContext, Findings, type DrillResult } from './context.js';
import type { Answer } from './http.js';
import type { Receiver } from './receiver.js';

type Rec = Record<string, unknown>;

/** A token of a record loaded through the control plane (no rule ran on it) shown by the API. */
export const FIXTURE_LEAK = 'a secret in an API answer (a record loaded as a fixture)';

function short(a: Answer): string {
  return a.status === 0 ? `no answer (${a.error})` : `${a.status} ${clip(a.text, 200)}`;
}

export async function secretsDrill(ctx: DrillContext, receiver: Receiver): Promise<DrillResult> {
  const started = performance.now();
  const findings = new Findings(6);
  const notes: string[] = [];
  const org = await ctx.createOrganization('drill secrets');
  const key = org.key;
  const hook = (path: string): string => `${receiver.url}/secrets/${path}`;
  const t = {
    ok: ctx.token('webhook token (delivered)'),
    fail: ctx.token('webhook token (receiver answers 500)'),
    closed: ctx.token('webhook token (unreachable URL)'),
    old: ctx.token('webhook token (replaced)'),
    fresh: ctx.token('webhook token (replacement)'),
    removed: ctx.token('webhook token (removed)'),
    tooLong: ctx.token('webhook token (too long, refused)'),
    badUrl: ctx.token('webhook token (with a refused URL)'),
    alertOld: ctx.token('alert channel token (replaced)'),
    alertNew: ctx.token('alert channel token'),
    fixtureHook: ctx.token('webhook token (loaded as a fixture)'),
    fixtureAlert: ctx.token('alert channel token (loaded as a fixture)'),
  };
  const expect = (a: Answer, status: number, what: string): Rec => {
    if (a.status !== status) findings.add('unexpected answer', `${what}: expected ${status}, got ${short(a)}`);
    return (a.body as Rec | undefined) ?? {};
  };

  // Webhooks with tokens.
  const create = async (path: string, token: string): Promise<string> => {
    const a = await ctx.api('secrets', 'createWebhook', 'POST', '/webhooks', { key, json: { type: 'job_complete', url: hook(path), auth_token: token } });
    const w = expect(a, 200, `creating webhook ${path}`).webhook as Rec | undefined;
    if (w && w.has_auth_token !== true) findings.add('has_auth_token wrong', `webhook ${path}: ${clip(JSON.stringify(w))}`);
    return (w?.id as string | undefined) ?? '';
  };
  const ok = await create('ok', t.ok);
  await create('fail/500', t.fail);
  const closedA = await ctx.api('secrets', 'createWebhook', 'POST', '/webhooks', { key, json: { type: 'job_complete', url: 'http://127.0.0.1:1/closed', auth_token: t.closed } });
  expect(closedA, 200, 'creating a webhook with an unreachable URL');
  const replaced = await create('replaced', t.old);
  const patched = await ctx.api('secrets', 'updateWebhook (new token)', 'PATCH', `/webhooks/${replaced}`, { key, json: { auth_token: t.fresh } });
  expect(patched, 200, 'replacing a webhook token');
  const removed = await create('removed', t.removed);
  const cleared = await ctx.api('secrets', 'updateWebhook (token removed)', 'PATCH', `/webhooks/${removed}`, { key, json: { auth_token: null } });
  const clearedHook = expect(cleared, 200, 'removing a webhook token').webhook as Rec | undefined;
  if (clearedHook && clearedHook.has_auth_token !== false) findings.add('has_auth_token wrong', `after removing the token: ${clip(JSON.stringify(clearedHook))}`);
  // Refused requests carrying tokens: the error must not repeat them.
  expect(await ctx.api('secrets', 'createWebhook (token too long)', 'POST', '/webhooks', { key, json: { type: 'job_complete', url: hook('x'), auth_token: `${t.tooLong}${'x'.repeat(300)}` } }), 400, 'a token over 255 characters');
  expect(await ctx.api('secrets', 'createWebhook (bad url)', 'POST', '/webhooks', { key, json: { type: 'job_complete', url: 'ftp://example.invalid/', auth_token: t.badUrl } }), 400, 'a refused URL with a token');
  expect(await ctx.api('secrets', 'updateWebhook (token wrong type)', 'PATCH', `/webhooks/${ok}`, { key, json: { auth_token: { token: t.badUrl } } }), 400, 'a token of the wrong type');
  await ctx.api('secrets', 'updateWebhook (token in a duplicate key)', 'PATCH', `/webhooks/${ok}`, { key, body: `{"auth_token":${JSON.stringify(t.tooLong)},"auth_token":5}`, headers: { 'content-type': 'application/json' } });
  // Keys where they do not belong: an unknown key that contains a real one, a key in the wrong header.
  for (const [label, headers] of [
    ['key with a suffix', { 'X-API-Key': `${key}x` }],
    ['key with a prefix', { 'X-API-Key': `x${key}` }],
    ['key as a bearer token', { Authorization: `Bearer ${key}` }],
    ['key in the workspace header', { 'X-API-Key': key, 'X-Service-Workspace-Id': key }],
    ['admin token as a key', { 'X-API-Key': ctx.info.admin_token }],
  ] as const) {
    await ctx.api('secrets', `listAgents (${label})`, 'GET', '/agents', { headers: { ...headers } });
    await ctx.api('secrets', `createTag (${label})`, 'POST', '/tags', { headers: { ...headers }, json: { tag_name: key } });
  }
  await ctx.api('secrets', 'getAgent (key as the id)', 'GET', `/agents/${encodeURIComponent(key)}`, { key });

  // An alert whose WEBHOOK channel carries a token, replaced once; it fires on every run with the metric.
  const channel = (token: string): Rec => ({ channel_type: 'WEBHOOK', config: { url: hook('alert'), method: 'POST', auth_token: token } });
  const metric = 'SecretsMetricAAAAAAAAA';
  const alertA = await ctx.api('secrets', 'createAlert', 'POST', '/alerts', { key, json: { name: 'secrets alert', evaluation_type: 'ON_RUN_COMPLETE', conditions: [{ metric_id: metric, aggregation: 'SINGLE', operator: 'GT', threshold_float: 0.1 }], channels: [channel(t.alertOld)] } });
  const alert = expect(alertA, 201, 'creating an alert with a webhook channel');
  expect(await ctx.api('secrets', 'updateAlert (new channel token)', 'PATCH', `/alerts/${alert.ulid as string}`, { key, json: { channels: [channel(t.alertNew)] } }), 200, 'replacing the alert channels');

  // Records loaded as they are through the control plane (no rule ran on them): a webhook with its token, an
  // alert whose channel config still holds its token. The API must not show either.
  let fixtures = true;
  let fixtureAlert = '';
  try {
    const loaded = await ctx.control('POST', `/organizations/${org.id}/fixtures`, {
      records: [
        { kind: 'webhook', data: { type: 'job_complete', url: hook('fixture'), auth_token: t.fixtureHook, has_auth_token: true } },
        { kind: 'alert', data: { name: 'fixture alert', status: 'ACTIVE', conditions: [{ ulid: '01JDRILLDRILLDRILLDRILLDR0', metric_id: metric, aggregation: 'SINGLE', operator: 'GT', threshold_float: 0.1 }], channels: [{ ulid: '01JDRILLDRILLDRILLDRILLDR1', channel_type: 'WEBHOOK', config: { url: hook('fixture-alert'), method: 'POST', auth_token: t.fixtureAlert } }] } },
      ],
    });
    fixtureAlert = ((loaded.body as Rec).records as { id: string }[])[1]!.id;
    await ctx.api('secrets', 'getAlert (fixture)', 'GET', `/alerts/${fixtureAlert}`, { key });
  } catch (error) {
    fixtures = false;
    notes.push(`fixtures not loaded: ${clip((error as Error).message, 200)}`);
  }

  // Make deliveries happen: completed runs, and a submitted conversation (two webhook waves when it has audio).
  const runs = 3;
  // Deliveries (and the retries of the failing ones) run in the background; the sent log below waits for them.
  for (let i = 0; i < runs; i++) await ctx.completeRun(org, { metric_values: { [metric]: 0.9 }, wait_for_deliveries: false });
  const world = ctx.world('secrets', org);
  const submit = ctx.suite.routes.find((r) => r.id === 'submitUploadedConversation')!;
  try {
    const spec = await prepare({ target: world.target, suite: ctx.suite, world, route: submit });
    const a = await ctx.route('secrets', submit, spec, key);
    if (a.status >= 300) findings.add('unexpected answer', `submitting a conversation: ${short(a)}`);
  } catch (error) {
    notes.push(`no conversation submitted: ${(error as Error).message}`);
  }
  // The control plane's sent log waits for every delivery and retry to finish (admin-only; not scanned).
  const sent = (((await ctx.control('GET', `/sent?organization_id=${org.id}`)).body as Rec).items as Rec[]) ?? [];
  const sentWithToken = sent.filter((s) => Object.values(t).some((tok) => JSON.stringify(s).includes(tok))).length;
  notes.push(`the control plane's sent log (admin-only, not scanned) lists ${sent.length} deliveries of this organization, ${sentWithToken} with their X-Webhook-Token header, as documented`);
  // Read back through the API what holds tokens.
  await ctx.api('secrets', 'listWebhooks', 'GET', '/webhooks', { key });
  await ctx.api('secrets', 'getAlert', 'GET', `/alerts/${alert.ulid as string}`, { key });
  await ctx.api('secrets', 'listAlerts', 'GET', '/alerts', { key });

  // What arrived at the receiver.
  const got = (path: string): string[] => receiver.received.filter((r) => r.path === `/secrets/${path}`).map((r) => String(r.headers['x-webhook-token'] ?? ''));
  const checks: [string, string[], string | null][] = [
    ['ok', got('ok'), t.ok],
    ['fail/500', got('fail/500'), t.fail],
    ['replaced', got('replaced'), t.fresh],
    ['removed', got('removed'), null],
    ['alert', got('alert'), t.alertNew],
    ...(fixtures
      ? ([
          ['fixture', got('fixture'), t.fixtureHook],
          ['fixture-alert', got('fixture-alert'), t.fixtureAlert],
        ] as [string, string[], string | null][])
      : []),
  ];
  let deliveries = 0;
  for (const [path, tokens, want] of checks) {
    deliveries += tokens.length;
    if (tokens.length === 0) findings.add('no delivery', `nothing arrived at /secrets/${path}`);
    for (const tok of tokens) if (tok !== (want ?? '')) findings.add('wrong token delivered', `/secrets/${path} received X-Webhook-Token ${tok === '' ? '(none)' : (ctx.secrets.get(tok) ?? 'an unknown value')}, expected ${want === null ? 'none' : ctx.secrets.get(want)}`);
  }

  // The scan: every answer of every drill was scanned as it arrived (drill/http.ts); here the hits, and every
  // line every sandbox process wrote.
  for (const hit of ctx.rec.hits) findings.add(hit.what.includes('fixture') ? FIXTURE_LEAK : 'a secret in an API answer', `${hit.drill} ${clip(hit.label, 120)} -> ${hit.status}: contains the ${hit.what}: ${clip(hit.excerpt, 240)}`);
  let lines = 0;
  let startup = 0;
  for (const line of ctx.log.lines) {
    if (line.startup) {
      startup++;
      continue;
    }
    lines++;
    const m = ctx.rec.find(line.line);
    if (m !== undefined) findings.add('a secret in a log line', `sandbox start ${line.start} ${line.stream}: contains the ${ctx.secrets.get(m)}: ${clip(line.line.replace(m, '<SECRET>'), 200)}`);
  }
  const tokenCount = [...ctx.secrets.values()].filter((v) => /token/.test(v) && !/admin/.test(v)).length;
  const keyCount = [...ctx.secrets.values()].filter((v) => /API key/.test(v)).length;
  if (!ctx.sandbox.alive()) findings.add('process gone', JSON.stringify(ctx.log.unexpectedExits));
  if (lines === 0) notes.push('the sandbox processes wrote no line besides their start-up lines (they log only internal errors and failed event handlers)');
  notes.push(`${startup} start-up lines (\`--json\`: base URL, development key, admin token, printed by design) are not scanned`);
  return {
    name: 'secrets',
    ok: findings.total === 0,
    ms: performance.now() - started,
    numbers: [
      ['secrets tracked', `${ctx.secrets.size} (${tokenCount} webhook and alert-channel tokens, ${keyCount} API keys, the admin token)`],
      ['webhook deliveries and alert notifications received', `${deliveries} (${checks.map(([p, tokens]) => `${p} ${tokens.length}`).join(', ')}), each with the expected X-Webhook-Token (or none after removal)`],
      ['runs completed / conversations submitted', `${runs} / 1`],
      ['API answers scanned (every drill of this run, as they arrived)', `${ctx.rec.scanned} (${Math.round(ctx.rec.scannedBytes / 1e6)} MB, headers and bodies)`],
      ['control-plane answers not scanned', ctx.rec.control],
      ['sandbox log lines scanned (every process of this run)', lines],
      ['secrets found in answers / log lines', `${(findings.counts['a secret in an API answer'] ?? 0) + (findings.counts[FIXTURE_LEAK] ?? 0)} / ${findings.counts['a secret in a log line'] ?? 0}`],
    ],
    findings: findings.kept,
    findingCounts: findings.counts,
    notes,
  };
}
