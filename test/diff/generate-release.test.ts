// The release through `npm run generate`: the report, each package's CHANGELOG and version, --fail-on-breaking,
// an unchanged spec (nothing rewritten), a missing or unreadable previous model (a first release, no crash).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { baseSpec, edited } from './fixture.js';

const run = (...args: string[]) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/generate.ts', ...args], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
};
const version = (out: string, pkg: string): string => (JSON.parse(readFileSync(join(out, pkg, 'package.json'), 'utf8')) as { version: string }).version;
const PACKAGES = ['client', 'sandbox', 'conformance'];
/** Standard error without the sandbox inference's warnings (GET /health of the fixture answers its example). */
const errors = (err: string): string => err.split('\n').filter((line) => line !== '' && !/^warning: pets: #\/paths\/~1health\/get: no resource inferred/.test(line)).join('\n');

describe('npm run generate versions the packages by what changed in the spec', () => {
  test('first release, unchanged, breaking (refused with --fail-on-breaking, then made), description only', { timeout: 600_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'release-'));
    const spec = join(dir, 'pets.json');
    const out = join(dir, 'out');
    writeFileSync(spec, JSON.stringify(baseSpec()));

    const first = run('--spec', spec, '--out', out);
    expect(errors(first.err)).toBe('');
    expect(first.out).toContain(`previous model: ${join(out, '.model.json')} does not exist; this is a first release (0.1.0)`);
    for (const pkg of PACKAGES) expect(version(out, pkg)).toBe('0.1.0');

    const modelFile = join(out, '.model.json');
    const before = { text: readFileSync(modelFile, 'utf8'), mtime: statSync(modelFile).mtimeMs };
    const unchanged = run('--spec', spec, '--out', out);
    expect(unchanged.out).toContain('0 breaking, 0 non-breaking changes (0 description-only); version 0.1.0 (unchanged)');
    expect(unchanged.out).toMatch(/^0 written, \d+ unchanged, 0 removed/m);
    expect(readFileSync(modelFile, 'utf8')).toBe(before.text);
    expect(statSync(modelFile).mtimeMs).toBe(before.mtime);

    writeFileSync(spec, JSON.stringify(edited((d) => (d.components.schemas.PetInput.properties.name.maxLength = 20))));
    const refused = run('--spec', spec, '--out', out, '--fail-on-breaking');
    expect(refused.code).toBe(3);
    expect(refused.out).toContain('1 breaking, 0 non-breaking changes (0 description-only); version 1.0.0 (major)');
    expect(refused.out).toMatch(/breaking +createPet +#\/paths\/~1pets\/post\/requestBody\/content\/application~1json\/schema\/properties\/name\/maxLength +request-max-length-decreased \(50 -> 20\)/);
    expect(refused.err).toContain('nothing written');
    expect(readFileSync(modelFile, 'utf8')).toBe(before.text);
    expect(version(out, 'client')).toBe('0.1.0');

    const made = run('--spec', spec, '--out', out);
    expect(made.code).toBe(0);
    for (const pkg of PACKAGES) {
      expect(version(out, pkg)).toBe('1.0.0');
      const changelog = readFileSync(join(out, pkg, 'CHANGELOG.md'), 'utf8');
      expect(changelog).toMatch(/## 1\.0\.0\n\n1 breaking, 0 non-breaking, 0 description-only change\(s\)\.\n\n- \*\*breaking\*\* `createPet` `#\/paths\/~1pets\/post\/requestBody\/content\/application~1json\/schema\/properties\/name\/maxLength`: request-max-length-decreased \(`50 -> 20`\)/);
      expect(changelog.indexOf('## 1.0.0')).toBeLessThan(changelog.indexOf('## 0.1.0'));
    }

    writeFileSync(spec, JSON.stringify(edited((d) => { d.components.schemas.PetInput.properties.name.maxLength = 20; d.paths['/pets'].get.summary = 'All the pets.'; })));
    const patch = run('--spec', spec, '--out', out, '--fail-on-breaking');
    expect(patch.code).toBe(0);
    expect(patch.out).toContain('0 breaking, 0 non-breaking changes (1 description-only); version 1.0.1 (patch)');
    expect(version(out, 'sandbox')).toBe('1.0.1');
    expect(run('--spec', spec, '--out', out, '--check').code).toBe(0);
  });

  test('an unreadable previous model is reported and the run is a first release', { timeout: 300_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'release-'));
    const spec = join(dir, 'pets.json');
    const out = join(dir, 'out');
    writeFileSync(spec, JSON.stringify(baseSpec()));
    expect(run('--spec', spec, '--out', out).code).toBe(0);
    writeFileSync(join(out, '.model.json'), '{ not json');
    const again = run('--spec', spec, '--out', out);
    expect(again.code).toBe(0);
    expect(errors(again.err)).toBe('');
    expect(again.out).toMatch(/previous model: .*\.model\.json is not JSON \(.*\); this is a first release \(0\.1\.0\)/);
    expect(version(out, 'client')).toBe('0.1.0');
  });
});
