// Conformance of inferred sandboxes on real specs (issue 27): for each spec named on the command line (a folder of
// the corpus, `../shared/specs/<name>` or CORPUS_DIR, or a path to a spec file), generate it in memory, start its
// inferred sandbox in process, run its own generated conformance suite against it and print passed / failed /
// skipped / not run, then the failures grouped by reason (counts, most first) so the biggest cause shows on top.
//   npm run any-spec -- box discord            (add --top N for more groups, --all to list every failure line)
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { notRunChecks } from '../src/conformance/not-run.js';
import type { CheckResult } from '../src/conformance/result.js';
import { conformanceOf, generateFor, groupedFailures } from './any-spec-run.js';
import { findOracle } from '../test/support/oracles.js';
import { exitWithUsage, readCommandLine } from './command-line.js';

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

const USAGE = [
  'usage: npm run any-spec -- <spec folder or file> [...] [--top N] [--all]',
  '  a folder of the corpus (../shared/specs/<name> or CORPUS_DIR/<name>) or a path to a spec file',
  '  --top N   failure groups shown per spec (default 12); --all also lists every failing check',
].join('\n');
const { values, positionals: specs } = readCommandLine({
  command: 'any-spec',
  usage: USAGE,
  options: { top: { type: 'string', default: '12' }, all: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const top = Number(values.top);
const all = values.all === true;
if (!Number.isInteger(top) || top < 0) exitWithUsage('any-spec', USAGE, `--top must be a whole number, got ${JSON.stringify(values.top)}`);
if (specs.length === 0) exitWithUsage('any-spec', USAGE, 'name at least one spec');
for (const spec of specs) {
  try {
    specFile(spec);
  } catch (error) {
    exitWithUsage('any-spec', USAGE, (error as Error).message);
  }
}
const rows: string[] = [];
for (const spec of specs) {
  const generated = await generateFor(specFile(spec));
  const results = await conformanceOf(generated);
  const count = (o: CheckResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const notRun = notRunChecks(generated.suite).length + count('not-run');
  const row = `${spec}: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped, ${notRun} not run`;
  rows.push(row);
  console.log(`\n${row}`);
  for (const [key, n, example] of groupedFailures(results).slice(0, top)) console.log(`  ${String(n).padStart(4)}  ${key}\n        e.g. ${example}`);
  if (all) for (const r of results.filter((x) => x.outcome === 'fail')) console.log(`  FAIL ${r.operation} | ${r.check} | ${r.detail ?? ''}`);
}
console.log(`\n${rows.join('\n')}`);
