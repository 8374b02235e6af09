// `npm run generate [-- --spec <dir|file|url>] [--out <dir>] [--check] [--policy strict|lenient] [--json] [--no-cache] [--cache-dir <dir>] [--fail-on-breaking]`
// Exit 0, 1 (--check: stale output), 2 (bad spec or flags), 3 (--fail-on-breaking: a breaking change since the previous model).
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { SpecError, warningText } from '../load/errors.js';
import { FetchError } from '../load/fetch-text.js';
import { formatReport } from '../diff/index.js';
import { defaultBuildCacheDir } from '../write/build-cache.js';
import { defaultStampDir, inputsKey, recordRun, upToDate } from '../write/up-to-date.js';

const DEFAULT_SPEC = 'spec';
const CONTROL_SPEC = 'src/sandbox/control/openapi.yaml';
const MAX_WARNINGS_SHOWN = 50;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      spec: { type: 'string', default: DEFAULT_SPEC },
      out: { type: 'string', default: 'generated' },
      check: { type: 'boolean', default: false },
      policy: { type: 'string' },
      json: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      'no-cache': { type: 'boolean', default: false },
      'cache-dir': { type: 'string' },
      'fail-on-breaking': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log('usage: npm run generate -- [--spec spec/|file|https://host/v1] [--out generated/] [--check] [--policy strict|lenient] [--json] [--no-cache] [--cache-dir DIR] [--fail-on-breaking]');
    return 0;
  }
  // Our own spec/ is held to the strict policy (provenance everywhere, only our x- vocabulary); any other source is lenient.
  const policy = values.policy ?? (resolve(values.spec!) === resolve(DEFAULT_SPEC) ? 'strict' : 'lenient');
  if (policy !== 'strict' && policy !== 'lenient') throw new Error(`--policy must be strict or lenient, not ${policy}`);
  const started = performance.now();
  // Generating our own spec/ also generates the client of the sandbox's control plane (its own small document).
  const companions = resolve(values.spec!) === resolve(DEFAULT_SPEC) ? [{ spec: CONTROL_SPEC, dir: 'control-client', packageName: '@evalplatform/sandbox-control-client' }] : [];
  // An unchanged spec (same inputs, output as the last run left it) is done before anything heavy loads.
  const stampDir = resolve(values['cache-dir'] ?? defaultStampDir());
  const key = values.check ? undefined : inputsKey({ specs: [values.spec!, ...companions.map((c) => c.spec)], out: values.out!, options: { policy, json: values.json, companions } });
  const unchanged = key === undefined || values['no-cache'] ? undefined : upToDate(stampDir, key, values.out!);
  if (unchanged !== undefined) {
    if (!values.quiet) console.log(`0 written, ${unchanged.length} unchanged, 0 removed in ${Math.round(performance.now() - started)} ms (inputs and output as the last run left them; --no-cache generates anyway)`);
    return 0;
  }
  const { generate } = await import('../pipeline.js');
  const summary = await generate({ spec: values.spec!, out: values.out!, check: values.check!, policy, json: values.json!, companions, failOnBreaking: values['fail-on-breaking']!, buildCacheDir: resolve(values['cache-dir'] ?? defaultBuildCacheDir()) });
  const refused = values['fail-on-breaking'] && summary.release.changes.some((c) => c.level === 'breaking');
  // Only a run that wrote its output may stamp it (a refused run wrote nothing, so the next run must generate).
  if (key !== undefined && !refused) recordRun(stampDir, key, values.out!, [...summary.written, ...summary.unchanged]);
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
  if (error instanceof SpecError || error instanceof FetchError || (error as Error)?.name === 'InternalError') return `error: ${(error as Error).message}`;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return `error: ${spec}: #: ${message}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(errorLine(error, specArgument()));
    process.exit(2);
  },
);

/** The --spec argument as given (for the error line), without parsing the rest again. */
function specArgument(): string {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === '--spec' || a.startsWith('--spec='));
  if (at < 0) return DEFAULT_SPEC;
  return args[at]!.startsWith('--spec=') ? args[at]!.slice('--spec='.length) : (args[at + 1] ?? DEFAULT_SPEC);
}
