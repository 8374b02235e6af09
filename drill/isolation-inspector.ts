// The isolation drill's inspector part: organization B's key against the inspector's JSON endpoints
// (/inspector/api, src/sandbox/inspector). Every endpoint that names something of A's (A's organization, each
// record the drill created for A, A's baselines and A's sent deliveries to re-send) must answer 404 exactly as it
// answers for an id that names nothing; B's own views (session, organizations, records, events, reference) must
// hold no id or name of A's; a missing or wrong token is 401 with the envelope.
import type { Created } from '../src/conformance/world.js';
import { clip, type DrillContext, type Findings, type Org } from './context.js';
import { envelopeProblem, send, type Answer } from './http.js';

/** Same shape, names nothing (as isolation.ts makes them). */
function fakeOf(id: string): string {
  return id.replace(/[A-Y]/g, 'Z').replace(/[a-y]/g, 'z');
}

function short(a: Answer): string {
  return a.status === 0 ? `no answer (${a.error})` : `${a.status} ${clip(a.text, 200)}`;
}

export async function inspectorIsolation(ctx: DrillContext, orgA: Org, orgB: Org, created: readonly Created[], findings: Findings): Promise<[string, string | number][]> {
  const origin = new URL(ctx.info.base_url).origin;
  const get = (path: string, token: string | null, method = 'GET'): Promise<Answer> =>
    send(ctx.rec, 'isolation', `inspector ${method} ${path.split('?')[0]}`, method, `${origin}/inspector/api/${path}`, {
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
  const counts = { named: 0, notFound: 0, views: 0, clean: 0, unauthenticated: 0 };

  // A has something to show: a completed run (and whatever deliveries it caused).
  await ctx.completeRun(orgA, { metric_values: {}, wait_for_deliveries: true });
  const sent = ((await ctx.control('GET', `/sent?organization_id=${encodeURIComponent(orgA.id)}`)).body as { items: { id: string }[] }).items;
  const baselines = created.filter((c) => c.resource === 'baseline');
  const named: { path: string; method?: string; id: string }[] = [
    { path: `records?organization_id=${encodeURIComponent(orgA.id)}`, id: orgA.id },
    { path: `events?organization_id=${encodeURIComponent(orgA.id)}`, id: orgA.id },
    ...created.map((c) => ({ path: `records/${encodeURIComponent(c.resource)}/${encodeURIComponent(c.id)}`, id: c.id })),
    ...baselines.map((c) => ({ path: `baselines/${encodeURIComponent(c.id)}`, id: c.id })),
    ...sent.map((s) => ({ path: `deliveries/${encodeURIComponent(s.id)}/resend`, method: 'POST', id: s.id })),
  ];
  for (const n of named) {
    counts.named++;
    const real = await get(n.path, orgB.key, n.method);
    const none = await get(n.path.split(n.id).join(fakeOf(n.id)), orgB.key, n.method);
    const where = `inspector ${n.method ?? 'GET'} /inspector/api/${n.path}`;
    if (real.status !== 404 || envelopeProblem(real)) findings.add("another organization's resource is not 404", `${where} with B's key: ${short(real)}`);
    else if (real.text.split(n.id).join('<id>') !== none.text.split(fakeOf(n.id)).join('<id>') || real.status !== none.status) findings.add("B can tell A's ids from ids that name nothing", `${where}: ${short(real)} / ${short(none)}`);
    else counts.notFound++;
  }

  // B's own views: nothing of A's in them.
  const secrets = [orgA.id, orgA.workspaceId, orgA.name, ...created.map((c) => c.id), ...sent.map((s) => s.id)];
  for (const path of ['session', 'organizations', 'records?builtin=true', 'events', 'reference']) {
    const a = await get(path, orgB.key);
    counts.views++;
    if (a.status !== 200) findings.add('drill error', `inspector GET /inspector/api/${path} with B's key: ${short(a)}`);
    const leak = secrets.find((s) => s.length >= 6 && a.text.includes(s));
    if (leak) findings.add("the inspector shows A's data to B", `/inspector/api/${path}: ${leak}`);
    else if (a.status === 200) counts.clean++;
  }

  for (const token of [null, fakeOf(orgB.key)]) {
    const a = await get('session', token);
    if (a.status !== 401 || envelopeProblem(a)) findings.add('inspector without a valid token is not 401', `token ${token === null ? 'missing' : 'wrong'}: ${short(a)}`);
    else counts.unauthenticated++;
  }

  return [
    ["inspector endpoints naming A's organization, records, baselines or deliveries: 404 for B, like unknown ids", `${counts.notFound} of ${counts.named}`],
    ["inspector views of B's own (session, organizations, records, events, reference) without A's data", `${counts.clean} of ${counts.views}`],
    ['inspector without a valid token: 401 with the envelope', `${counts.unauthenticated} of 2`],
  ];
}
