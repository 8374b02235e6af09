// `tsc --strict` over a generated client package, shared by `npm run corpus` and its `--directory` mode.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/**
 * `tsc --strict` over the client package, twice in one program: the emitted TypeScript sources (function bodies
 * included, which the shipped .d.ts files do not show) and the shipped declaration files a consumer compiles
 * against (with skipLibCheck off). `work` is a scratch folder; diagnostics name files relative to it.
 */
export async function typecheckClient(files: { path: string; contents: string; kind: string }[], work: string, out: string): Promise<{ files: number; errors: string[] }> {
  const { typecheck } = await import('../test/support/typecheck.js');
  const src = join(work, 'src');
  const roots: string[] = [];
  for (const f of files) {
    if (!f.path.startsWith('client/')) continue;
    const target = join(src, f.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, f.contents);
    if (f.kind === 'module' || f.path.endsWith('.d.ts')) roots.push(target);
  }
  for (const f of readdirSync(join(out, 'client'))) if (f.endsWith('.d.ts')) roots.push(join(out, 'client', f));
  const diagnostics = typecheck(roots);
  return { files: roots.length, errors: diagnostics.map((d) => d.replace(work + sep, '')) };
}
