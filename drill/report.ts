// The drill results as console text and as the Markdown report (reports/drill.md).
import { cpus } from 'node:os';
import type { DrillResult, Options } from './context.js';
import type { Recorder } from './http.js';

const TITLES: Record<string, string> = {
  fuzz: 'Fuzz',
  races: 'Races',
  crash: 'Crash (kill -9 during writes)',
  isolation: 'Isolation (another organization)',
  secrets: 'Secrets (tokens and keys in answers and logs)',
  'shared races': 'Races across instances',
  'shared isolation': 'Isolation across instances',
  'shared crash': 'Crash (kill -9 of one instance during writes and deliveries)',
  'shared restart': 'PostgreSQL restart during traffic',
};

export function printResult(r: DrillResult): string {
  const lines = [`\n== ${TITLES[r.name] ?? r.name}: ${r.ok ? 'PASS' : 'FAIL'} (${(r.ms / 1000).toFixed(1)} s)`];
  for (const [k, v] of r.numbers) lines.push(`  ${k}: ${v}`);
  const kinds = Object.entries(r.findingCounts);
  if (kinds.length > 0) {
    lines.push(`  findings: ${kinds.map(([k, n]) => `${k} x${n}`).join(', ')}`);
    for (const f of r.findings) lines.push(`    - [${f.kind}] ${f.detail}`);
  }
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function markdown(results: DrillResult[], options: Options, ms: number, rec: Recorder, load?: { before: number[]; after: number[] }): string {
  const out: string[] = [];
  out.push('# Drill report', '');
  const shared = options.db ? ` --instances ${options.instances} --db ${options.db.replace(/:[^:@/]*@/, ':***@')}` : '';
  out.push(`\`npm run drill -- --seed ${options.seed}${options.requests !== 20000 ? ` --requests ${options.requests}` : ''}${shared}\`: ${results.filter((r) => r.ok).length} of ${results.length} drills passed in ${Math.round(ms / 1000)} s; ${rec.requests} HTTP exchanges in all (drills, set-up and control plane). Node ${process.version}, ${cpus().length} cores${load ? `, load average ${load.before[0]!.toFixed(1)} at the start and ${load.after[0]!.toFixed(1)} at the end (times and rates depend on it)` : ''}, ${new Date().toISOString().slice(0, 10)}.`, '');
  out.push('| drill | result | time | findings |', '|---|---|---:|---|');
  for (const r of results) {
    const kinds = Object.entries(r.findingCounts);
    out.push(`| ${TITLES[r.name] ?? r.name} | ${r.ok ? 'pass' : '**fail**'} | ${(r.ms / 1000).toFixed(1)} s | ${kinds.length === 0 ? 'none' : cell(kinds.map(([k, n]) => `${k} x${n}`).join(', '))} |`);
  }
  for (const r of results) {
    out.push('', `## ${TITLES[r.name] ?? r.name}: ${r.ok ? 'pass' : 'fail'}`, '');
    out.push('| | |', '|---|---|');
    for (const [k, v] of r.numbers) out.push(`| ${cell(k)} | ${cell(String(v))} |`);
    if (r.findings.length > 0) {
      out.push('', 'Findings (the first few of each kind, with the request and the answer):', '');
      for (const f of r.findings) out.push(`- **${cell(f.kind)}**: \`${f.detail.replace(/`/g, "'").replace(/\n/g, ' ')}\``);
    }
    if (r.notes.length > 0) {
      out.push('', 'Notes:', '');
      for (const n of r.notes) out.push(`- ${n}`);
    }
  }
  out.push('');
  return out.join('\n');
}
