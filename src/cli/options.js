// @ts-check
// The command line of `npm run generate`, read the same way by the launcher (launch.js, before TypeScript loads)
// and by the CLI (generate.ts): plain JavaScript with node: built-ins only, checked by tsc through JSDoc.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export const DEFAULT_SPEC = 'spec';
const CONTROL_SPEC = 'src/sandbox/control/openapi.yaml';

export const USAGE = 'usage: npm run generate -- [--spec spec/|file|https://host/v1] [--out generated/] [--check] [--policy strict|lenient] [--json] [--no-cache] [--cache-dir DIR] [--fail-on-breaking] [--max-bytes N]';

/** A command line that cannot be read (unknown flag, missing or bad value): printed with the usage, exit 2. */
export class UsageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * A spec generated into the same output as a client package only (the sandbox's control plane).
 * @typedef {{ spec: string, dir: string, packageName: string }} Companion
 */

/**
 * @typedef {object} GenerateOptions
 * @property {string} spec
 * @property {string} out
 * @property {boolean} check
 * @property {'strict' | 'lenient'} policy
 * @property {boolean} json
 * @property {boolean} quiet
 * @property {boolean} noCache
 * @property {string | undefined} cacheDir
 * @property {boolean} failOnBreaking
 * @property {number | undefined} maxBytes Largest document accepted, in bytes (default: the loader's limit); for trusted large files
 * @property {boolean} help
 * @property {Companion[]} companions
 */

/**
 * The options of a command line (process.argv without node and the script). Throws a UsageError on an unknown
 * flag, a flag without its value, or an unknown policy.
 * @param {string[]} args
 * @returns {GenerateOptions}
 */
export function parseGenerateArgs(args) {
  try {
    return readGenerateArgs(args);
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * @param {string[]} args
 * @returns {GenerateOptions}
 */
function readGenerateArgs(args) {
  const { values } = parseArgs({
    args,
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
      'max-bytes': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const ownSpec = resolve(values.spec) === resolve(DEFAULT_SPEC);
  // Our own spec/ is held to the strict policy (provenance everywhere, only our x- vocabulary); any other source is lenient.
  const policy = values.policy ?? (ownSpec ? 'strict' : 'lenient');
  if (policy !== 'strict' && policy !== 'lenient') throw new UsageError(`--policy must be strict or lenient, not ${policy}`);
  // A trusted large document (Microsoft Graph's beta description is 47 MB) may raise the loader's size limit.
  const maxBytes = values['max-bytes'] === undefined ? undefined : Number(values['max-bytes']);
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) throw new UsageError(`--max-bytes must be a positive whole number of bytes, not ${values['max-bytes']}`);
  return {
    spec: values.spec,
    out: values.out,
    check: values.check,
    policy,
    json: values.json,
    quiet: values.quiet,
    noCache: values['no-cache'],
    cacheDir: values['cache-dir'],
    failOnBreaking: values['fail-on-breaking'],
    maxBytes,
    help: values.help,
    // Generating our own spec/ also generates the client of the sandbox's control plane (its own small document).
    companions: ownSpec ? [{ spec: CONTROL_SPEC, dir: 'control-client', packageName: '@evalplatform/sandbox-control-client' }] : [],
  };
}

/**
 * The --spec argument as given (for the error line), without parsing the rest again (the rest may be what failed).
 * @param {string[]} args
 * @returns {string}
 */
export function specArgument(args) {
  const at = args.findIndex((a) => a === '--spec' || a.startsWith('--spec='));
  if (at < 0) return DEFAULT_SPEC;
  const flag = args[at] ?? '';
  return flag.startsWith('--spec=') ? flag.slice('--spec='.length) : (args[at + 1] ?? DEFAULT_SPEC);
}
