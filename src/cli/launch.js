// @ts-check
// `npm run generate` starts here, in plain Node: an unchanged spec (same inputs, output as the last run left it) is
// recognised and reported without loading TypeScript (tsx) or anything of the generator, which is most of the
// time of such a run. Any other run (or a command line this cannot read: the CLI reports it) starts the CLI
// (generate.ts, bundled by compiled-cli.js, or through tsx) and hands it the answer, so nothing is hashed twice.
import { compiledCli } from './compiled-cli.js';
import { parseGenerateArgs, USAGE, UsageError } from './options.js';
import { checkUnchangedRun, unchangedLine } from './unchanged-run.js';

const started = performance.now();
const args = process.argv.slice(2);

/** @type {import('./unchanged-run.js').UnchangedRun | undefined} */
let known;
try {
  const options = parseGenerateArgs(args);
  if (!options.help) known = checkUnchangedRun(options, started);
  if (known?.unchanged !== undefined) {
    if (!options.quiet) console.log(unchangedLine({ ...known, unchanged: known.unchanged }));
    process.exit(0);
  }
} catch (error) {
  // A command line that cannot be read: the reason and the usage, exit 2, before anything heavy loads.
  if (error instanceof UsageError) {
    console.error(`error: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  known = undefined; // the CLI looks again and reports what is wrong (one line, exit 2)
}
// The CLI built into one module (compiled-cli.js), or else the TypeScript sources through tsx's ESM hooks (the
// generator imports its modules, never requires them).
const cli = await compiledCli(known?.run?.inputs);
if (cli !== undefined) cli.runCli(args, known);
else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runCli } = await import('./generate.js');
  runCli(args, known);
}
