import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Every user-facing command of the project, started as its npm script starts it: a flag it does not know, or a
// value it cannot use, prints one line naming it, then the usage, and exits 2 (never a stack trace, never ignored).
const TSX = ['--import', 'tsx'];
const COMMANDS: { name: string; argv: string[] }[] = [
  { name: 'generate', argv: ['src/cli/launch.js'] },
  { name: 'sandbox', argv: [...TSX, 'src/sandbox/cli.ts'] },
  { name: 'conformance', argv: [...TSX, 'src/conformance/cli.ts'] },
  { name: 'drill', argv: [...TSX, 'drill/run.ts'] },
  { name: 'bench', argv: [...TSX, 'bench/run.ts'] },
  { name: 'corpus', argv: [...TSX, 'scripts/corpus.ts'] },
  { name: 'corpus --directory', argv: [...TSX, 'scripts/corpus.ts', '--directory'] },
  { name: 'jsts', argv: [...TSX, 'test/jsts/cli.ts'] },
  { name: 'examples', argv: [...TSX, 'scripts/update-examples.ts'] },
  { name: 'mutation:summary', argv: [...TSX, 'scripts/mutation-summary.ts'] },
  { name: 'build:inspector', argv: [...TSX, 'scripts/build-inspector.ts'] },
  { name: 'any-spec', argv: [...TSX, 'scripts/any-spec-conformance.ts', 'museum'] },
];

function run(argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { env: { ...process.env, CI: 'true' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('a bad flag prints the usage and exits 2', () => {
  it.each(COMMANDS)('npm run $name -- --no-such-flag', async ({ argv }) => {
    const result = await run([...argv, '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.err).toContain("'--no-such-flag'");
    expect(result.err).toMatch(/usage/i);
    expect(result.err).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  });
});

describe('a bad value names the flag and why', () => {
  it('bench: a non-positive --gen-runs and an unknown bench name', async () => {
    const runs = await run([...TSX, 'bench/run.ts', '--gen-runs', '0']);
    expect(runs.code).toBe(2);
    expect(runs.err).toContain('--gen-runs must be a positive number, got "0"');
    const only = await run([...TSX, 'bench/run.ts', '--only', 'nonesuch']);
    expect(only.code).toBe(2);
    expect(only.err).toMatch(/unknown bench nonesuch; known: validators, /);
  });

  it('mutation:summary: a report that is not there', async () => {
    const result = await run([...TSX, 'scripts/mutation-summary.ts', 'no/such/report.json']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('no report at no/such/report.json');
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const result = await run([...TSX, 'scripts/update-examples.ts', '--help']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('usage: npm run examples [-- --check]');
  });
});
