// `npm run jsts`: per-file summary of the JSON Schema Test Suite run, failures, then the totals line.
import { runSuite, summaryLine } from './run-suite.js';

const r = await runSuite();
for (const f of r.files) {
  console.log(`${f.file.padEnd(32)} ${String(f.passed).padStart(4)} passed ${String(f.failed).padStart(4)} failed ${String(f.excluded).padStart(4)} excluded`);
}
for (const line of r.failures) console.log(`FAIL ${line}`);
console.log(summaryLine(r));
process.exitCode = r.failed > 0 ? 1 : 0;
