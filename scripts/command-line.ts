// How the project's own commands (bench, corpus, jsts, examples, mutation summary, inspector build) read their
// flags: node:util's parseArgs, strict, and on a bad flag or value one line naming it, the command's usage, and exit
// 2, as the generator, the sandbox, the conformance suite and the drills do. One definition, so no command falls back
// to a stack trace or ignores a flag it does not know.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A bad flag or value: the message names it; `exitWithUsage` prints it with the usage. */
export class UsageError extends Error {}

export interface CommandLine<T extends ParseArgsConfig['options']> {
  /** The name printed before each message, e.g. `bench`. */
  command: string;
  /** The whole usage text, printed after a bad flag and for `--help`. */
  usage: string;
  options: T;
  /** Whether bare words are allowed (file names); by default any is a usage error. */
  allowPositionals?: boolean;
  /** Defaults to the process's own arguments. */
  args?: string[];
}

/** Parses the command line; a bad flag prints the usage and exits 2, `--help` prints it and exits 0. */
export function readCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(spec: CommandLine<T>) {
  const options = { ...spec.options, help: { type: 'boolean', short: 'h' } } as T & { help: { type: 'boolean'; short: 'h' } };
  try {
    const parsed = parseArgs({ args: spec.args ?? process.argv.slice(2), options, strict: true, allowPositionals: spec.allowPositionals ?? false });
    if ((parsed.values as { help?: boolean }).help === true) {
      console.log(spec.usage);
      process.exit(0);
    }
    return parsed;
  } catch (error) {
    return exitWithUsage(spec.command, spec.usage, (error as Error).message);
  }
}

/** One line naming what is wrong, then the usage, on stderr; exit 2. */
export function exitWithUsage(command: string, usage: string, message: string): never {
  console.error(`${command}: ${message}`);
  console.error(usage);
  process.exit(2);
}

/** A flag's value as a positive number, or a usage error naming the flag. */
export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got ${JSON.stringify(value)}`);
  return n;
}
