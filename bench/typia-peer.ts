// typia as a validator peer: its ahead-of-time validators for the benchmarked bodies, built at bench time from
// today's model. bench/json-schema-to-typia.ts writes the types (with typia's constraint tags) and the
// `typia.createIs` / `typia.createValidate` calls; typia's own CLI (`typia generate`, the documented way to use
// typia without a compiler plugin) replaces those calls with generated code; esbuild strips the types.
// The result is kept in node_modules/.cache/evalplatform-toolchain/bench-typia/<key>/ under a key of the source
// text and the typia and TypeScript versions, so only a changed spec (or a new typia) pays the transform
// (about 7 s of CPU).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { toTypiaModule, type Node } from './json-schema-to-typia.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Inside the project's node_modules, so that `typia` resolves from the generated module.
const CACHE = join(ROOT, 'node_modules/.cache/evalplatform-toolchain/bench-typia');
const TYPIA_CLI = join(ROOT, 'node_modules/typia/lib/executable/typia.js');

export interface TypiaValidators {
  is: (x: unknown) => boolean;
  validate: (x: unknown) => { success: boolean; errors?: unknown[] };
}

function version(pkg: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

export const typiaVersion = (): string => version('typia');

/** typia's validators for each root schema (key: an identifier), built or taken from the cache. */
/** `instance`: a private module instance (its own functions and JIT state) when set, else the shared one. */
export async function typiaValidators(roots: Record<string, Node>, defs: Record<string, Node>, instance?: number): Promise<Record<string, TypiaValidators>> {
  const { text } = toTypiaModule(roots, defs);
  const key = createHash('sha256').update(text).update(`typia ${version('typia')} typescript ${version('typescript')}`).digest('hex').slice(0, 16);
  const dir = join(CACHE, key);
  const js = join(dir, 'validators.mjs');
  if (!existsSync(js)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'in'), { recursive: true });
    writeFileSync(join(dir, 'in', 'validators.ts'), text);
    // typia needs strict mode to tell `T | null` from `T`.
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', skipLibCheck: true, noEmit: true } }));
    const r = spawnSync(process.execPath, [TYPIA_CLI, 'generate', '--input', join(dir, 'in'), '--output', join(dir, 'out'), '--project', join(dir, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8', timeout: 10 * 60_000 });
    const outFile = join(dir, 'out', 'validators.ts');
    if (r.status !== 0 || !existsSync(outFile)) throw new Error(`typia generate failed (status ${r.status}${r.error ? `, ${r.error.message}` : ''}): ${(r.stderr || r.stdout).slice(-2000)}`);
    const generated = readFileSync(outFile, 'utf8');
    // typia leaves a call it could not resolve untouched (e.g. when `typia` does not resolve): no silent fallback.
    if (/typia\.create(Is|Validate)\s*</.test(generated)) throw new Error(`typia generate left typia.createIs/createValidate calls untransformed in ${outFile}`);
    writeFileSync(js, transformSync(generated, { loader: 'ts', format: 'esm', target: 'es2022' }).code);
  }
  const mod = (await import(`${pathToFileURL(js).href}${instance === undefined ? '' : `?instance=${instance}`}`)) as Record<string, unknown>;
  const out: Record<string, TypiaValidators> = {};
  for (const k of Object.keys(roots)) {
    const is = mod[`is_${k}`];
    const validate = mod[`validate_${k}`];
    if (typeof is !== 'function' || typeof validate !== 'function') throw new Error(`typia module ${js} lacks is_${k} / validate_${k}`);
    out[k] = { is: is as TypiaValidators['is'], validate: validate as TypiaValidators['validate'] };
  }
  return out;
}
