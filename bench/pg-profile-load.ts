// `npx tsx bench/pg-profile-load.ts BASE_URL API_KEY SECONDS`: the load of bench/sandbox-pg.ts's two main cases
// (persona GET, tag create; 32 connections) against one running sandbox, for profiling it from outside
// (`node --cpu-prof` on the instance: docs/team-sandbox.md, "Profile"). Prints req/s and p99 per case.
import { OPS, load } from './sandbox.js';

const [base, key, secondsText] = process.argv.slice(2);
if (!base || !key) {
  console.error('usage: npx tsx bench/pg-profile-load.ts BASE_URL API_KEY [SECONDS]');
  process.exit(2);
}
const seconds = Number(secondsText ?? '8');
const created = await fetch(`${base}/personas`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'profile persona', voice_name: 'alloy', language_code: 'en-US' }) });
const persona = ((await created.json()) as { persona?: { id: string }; id?: string });
const personaId = persona.persona?.id ?? persona.id;
for (const op of OPS.filter((o) => o.key === 'get' || o.key === 'create')) {
  const url = op.key === 'create' ? `${base}/tags` : `${base}/personas/${personaId}`;
  const l = await load(url, op, key, 32, seconds);
  console.log(`${op.label}: ${l.rps.toFixed(0)} req/s, p99 ${l.p99.toFixed(1)} ms, ${l.ok} ok, ${l.bad} other, ${l.errors} errors`);
}
