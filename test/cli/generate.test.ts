import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../src/cli/options.js';

// As `npm run generate` starts it: the plain-Node launcher, which loads tsx and the CLI only when there is work to do.
const run = (...args: string[]) => {
  const result = spawnSync(process.execPath, ['src/cli/launch.js', ...args], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
};

describe('npm run generate', () => {
  it('keeps the committed generated/ up to date with spec/', () => {
    const result = run('--check');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/generated output is up to date/);
  });

  it('writes a package, leaves unchanged files alone, and --check finds a stale or extra file', () => {
    const out = mkdtempSync(join(tmpdir(), 'gen-'));
    const first = run('--out', out);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/\d+ written, 0 unchanged, 0 removed/);
    expect(existsSync(join(out, 'client/types.d.ts'))).toBe(true);
    const second = run('--out', out);
    expect(second.out).toMatch(/0 written, \d+ unchanged, 0 removed/);
    expect(second.out).toMatch(/inputs and output as the last run left them/); // decided before TypeScript loads

    const types = join(out, 'client/types.d.ts');
    writeFileSync(types, `${readFileSync(types, 'utf8')}\n// edited by hand\n`);
    writeFileSync(join(out, 'client/leftover.js'), 'old');
    const check = run('--out', out, '--check');
    expect(check.code).toBe(1);
    expect(check.err).toContain('client/types.d.ts (differs)');
    expect(check.err).toContain('client/leftover.js (no longer generated)');
    const repaired = run('--out', out);
    expect(repaired.out).toMatch(/1 written, \d+ unchanged, 1 removed/);
  });

  it('reports a command line it cannot read with the reason and the usage, exit 2, also from the launcher', () => {
    const result = run('--policy', 'loose');
    expect(result.code).toBe(2);
    expect(result.err).toBe(`error: --policy must be strict or lenient, not loose\n${USAGE}\n`);
    // A mistyped flag is the command line's fault, not the spec's.
    const typo = run('--sepc', 'spec');
    expect(typo.code).toBe(2);
    expect(typo.err).toBe(`error: Unknown option '--sepc'\n${USAGE}\n`);
  });

  it('fails with the spec name, pointer and reason, and a non-zero exit, on a bad spec', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-'));
    writeFileSync(join(dir, 'things.yaml'), 'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths:\n  /a:\n    get:\n      responses: { "200": { description: ok } }\n      x-rules: [nope]\n');
    const result = run('--spec', dir, '--out', mkdtempSync(join(tmpdir(), 'out-')), '--policy', 'strict');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^error: things: #\/paths\/~1a\/get/);
  });
});
