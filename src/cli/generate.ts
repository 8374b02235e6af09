// `npm run generate [-- --spec <dir|file|url>] [--out <dir>] [--check] [--policy strict|lenient] [--json] [--no-cache] [--cache-dir <dir>] [--fail-on-breaking] [--max-bytes N]`
// Exit 0, 1 (--check: stale output), 2 (bad spec or flags), 3 (--fail-on-breaking: a breaking change since the previous model).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpecError, warningText } from '../load/errors.js';
import { FetchError } from '../load/fetch-text.js';
import { formatReport } from '../diff/index.js';
import { defaultBuildCacheDir } from '../write/build-cache.js';
import { recordRun } from '../write/up-to-date.js';
import { parseGenerateArgs, specArgument, USAGE } from './options.js';
import { checkUnchangedRun, unchangedLine, type UnchangedRun } from './unchanged-run.js';

const MAX_WARNINGS_SHOWN = 50;

/**
 * One run of the CLI; the exit code. `known`: the launcher's answer to whether the run has anything to do (it asked
 * before TypeScript was loaded), so the inputs are not hashed twice.
 */
export async function main(args: string[], known?: UnchangedRun): Promise<number> {
  const started = known?.started ?? performance.now();
  const values = parseGenerateArgs(args);
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const { policy, companions } = values;
  // An unchanged spec (same inputs, output as the last run left them) is done before anything heavy loads.
  const shortcut = known ?? checkUnchangedRun(values, started);
  if (shortcut.unchanged !== undefined) {
    if (!values.quiet) console.log(unchangedLine({ ...shortcut, unchanged: shortcut.unchanged }));
    return 0;
  }
  const { generate } = await import('../pipeline.js');
  const summary = await generate({ spec: values.spec, out: values.out, check: values.check, policy, json: values.json, companions, failOnBreaking: values.failOnBreaking, maxBytes: values.maxBytes, buildCacheDir: resolve(values.cacheDir ?? defaultBuildCacheDir()) });
  const refused = values.failOnBreaking && summary.release.changes.some((c) => c.level === 'breaking');
  // Only a run that wrote its output may stamp it (a refused run wrote nothing, so the next run must generate).
  if (shortcut.run !== undefined && !refused) recordRun(shortcut.stampDir, shortcut.run, [...summary.written, ...summary.unchanged]);
  const ms = Math.round(performance.now() - started);
  const t = summary.timings;
  const r = summary.render;
  const stages = `load ${Math.round(t.load)} ms, model ${Math.round(t.model)} ms, emit ${Math.round(t.emit)} ms, render ${Math.round(t.render)} ms, write ${Math.round(t.write)} ms; render: compile ${Math.round(r.compileMs)} ms, format ${Math.round(r.formatMs)} ms`;
  if (values.check) {
    if (summary.stale.length > 0) {
      console.error(`generated output is stale (${summary.stale.length} file(s)); run npm run generate:`);
      for (const s of summary.stale) console.error(`  ${s}`);
      return 1;
    }
    if (!values.quiet) console.log(`generated output is up to date (${summary.unchanged.length} files, ${ms} ms: ${stages})`);
    return 0;
  }
  // Lenient policy: what the OpenAPI schema or spec rules would refuse but still describes an API.
  const shown = summary.warnings.slice(0, MAX_WARNINGS_SHOWN);
  for (const w of shown) console.error(`warning: ${warningText(w)}`);
  if (summary.warnings.length > shown.length) console.error(`warning: ... and ${summary.warnings.length - shown.length} more`);
  if (!values.quiet) for (const line of formatReport(summary.release)) console.log(line);
  if (refused) {
    console.error('error: breaking changes since the previous model (--fail-on-breaking): nothing written');
    return 3;
  }
  if (!values.quiet) {
    if (summary.warnings.length > 0) console.log(`${summary.warnings.length} warning(s) (lenient policy: generated anyway)`);
    console.log(`${summary.model.operations.length} operations, ${Object.keys(summary.model.schemas).length} schemas from ${summary.model.catalog.length} document(s)`);
    console.log(`${summary.written.length} written, ${summary.unchanged.length} unchanged, ${summary.removed.length} removed in ${ms} ms (${stages})`);
  }
  return 0;
}

/** Every failure is one line, `error: <spec>: <JSON pointer>: <reason>`, never a stack trace. */
function errorLine(error: unknown, spec: string): string {
  // InternalError (src/pipeline.ts) is matched by name: importing the pipeline here would load it before the
  // unchanged-spec shortcut, which must stay cheap.
  // A bad command line is not the spec's fault: the reason and the usage.
  if ((error as Error)?.name === 'UsageError') return `error: ${(error as Error).message}\n${USAGE}`;
  if (error instanceof SpecError || error instanceof FetchError || (error as Error)?.name === 'InternalError') return `error: ${(error as Error).message}`;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return `error: ${spec}: #: ${message}`;
}

/** Runs the CLI and exits with its code; any failure is the one error line and exit 2. */
export function runCli(args: string[], known?: UnchangedRun): void {
  main(args, known).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(errorLine(error, specArgument(args)));
      process.exit(2);
    },
  );
}

// Started directly (`node --import tsx src/cli/generate.ts`, as tests and the bench do); `npm run generate` starts
// launch.js, which imports this module only when there is work to do.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) runCli(process.argv.slice(2));
