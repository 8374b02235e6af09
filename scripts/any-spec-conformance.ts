// Conformance of inferred sandboxes on real specs (issue 27): for each spec named on the command line (a folder of
// the corpus, `../shared/specs/<name>` or CORPUS_DIR, or a path to a spec file), generate it in memory, start its
// inferred sandbox in process, run its own generated conformance suite against it and print passed / failed /
// skipped / not run, then the failures grouped by reason (counts, most first) so the biggest cause shows on top.
//   npm run any-spec -- box discord            (add --top N for more groups, --all to list every failure line)
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { notRunChecks } from '../src/conformance/not-run.js';
import type { CheckResult } from '../src/conformance/result.js';
import { conformanceOf, generateFor } from '../test/support/any-spec.js';
import { findOracle } from '../test/support/oracles.js';

/** The spec file of a corpus folder: its only `.yaml`/`.json` at the top, `openapi.*` first. */
function specFile(arg: string): string {
  if (existsSync(arg) && statSync(arg).isFile()) return arg;
  const dir = existsSync(arg) ? arg : join(findOracle('corpus').dir ?? '', arg);
  if (!existsSync(dir)) throw new Error(`no spec named ${arg} (neither a file nor a folder of the corpus)`);
  const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f) && statSync(join(dir, f)).isFile());
  const chosen = files.find((f) => /^openapi\./.test(f)) ?? files[0] ?? (existsSync(join(dir, 'openapi', 'openapi.yaml')) ? join('openapi', 'openapi.yaml') : undefined);
  if (chosen === undefined) throw new Error(`no spec file in ${dir}`);
  return join(dir, chosen);
}

/** A failure's reason without what varies between operations (resource, paths, numbers, quoted values). */
export function reasonGroup(result: CheckResult): string {
  const detail = (result.detail ?? '')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\/[\w{}./-]+/g, '/…')
    .replace(/\b\d+\b/g, 'N')
    .replace(/^(create|get|list|update|delete) [\w-]+: /, '$1 <resource>: ')
    .slice(0, 160);
  return detail;
}

function grouped(results: readonly CheckResult[]): [string, number, string][] {
  const groups = new Map<string, { count: number; example: string }>();
  for (const r of results) {
    if (r.outcome !== 'fail') continue;
    const key = reasonGroup(r);
    const g = groups.get(key) ?? { count: 0, example: `${r.operation} | ${r.check} | ${(r.detail ?? '').slice(0, 300)}` };
    g.count++;
    groups.set(key, g);
  }
  return [...groups].map(([key, g]): [string, number, string] => [key, g.count, g.example]).sort((a, b) => b[1] - a[1]);
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 12;
const all = args.includes('--all');
const specs = args.filter((a, i) => !a.startsWith('--') && !(topAt >= 0 && i === topAt + 1));
if (specs.length === 0) {
  console.error('usage: npm run any-spec -- <spec folder or file> [...] [--top N] [--all]');
  process.exit(2);
}
const rows: string[] = [];
for (const spec of specs) {
  const generated = await generateFor(specFile(spec));
  const results = await conformanceOf(generated);
  const count = (o: CheckResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const notRun = notRunChecks(generated.suite).length;
  const row = `${spec}: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped, ${notRun} not run`;
  rows.push(row);
  console.log(`\n${row}`);
  for (const [key, n, example] of grouped(results).slice(0, top)) console.log(`  ${String(n).padStart(4)}  ${key}\n        e.g. ${example}`);
  if (all) for (const r of results.filter((x) => x.outcome === 'fail')) console.log(`  FAIL ${r.operation} | ${r.check} | ${r.detail ?? ''}`);
}
console.log(`\n${rows.join('\n')}`);
