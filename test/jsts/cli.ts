// `npm run jsts`: per-file summary of the JSON Schema Test Suite run, failures, then the totals line.
// The suite is found by JSTS_DIR or at ../shared/jsts/draft2020-12; missing, the run fails under CI and is
// skipped (loudly, by SUITE_DIR) elsewhere.
import { runSuite, summaryLine, SUITE_DIR } from './run-suite.js';
import { readCommandLine } from '../../scripts/command-line.js';

readCommandLine({
  command: 'jsts',
  usage: 'usage: npm run jsts   (no flags; the suite folder is JSTS_DIR or ../shared/jsts/draft2020-12)',
  options: {},
});

if (SUITE_DIR === undefined) {
  process.exitCode = 0;
} else {
  const r = await runSuite(SUITE_DIR);
  for (const f of r.files) {
    console.log(`${f.file.padEnd(32)} ${String(f.passed).padStart(4)} passed ${String(f.failed).padStart(4)} failed`);
  }
  for (const line of r.failures) console.log(`FAIL ${line}`);
  console.log(summaryLine(r));
  process.exitCode = r.failed > 0 ? 1 : 0;
}
