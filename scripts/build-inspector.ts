// npm run build:inspector [-- --check]: bundles the inspector's front end (src/inspector: Preact + htm, uPlot)
// with esbuild into src/sandbox/inspector/dist (committed, served by the sandbox), and prints each file's size,
// raw and gzipped. The output depends only on the sources and the locked package versions, so a rebuild of an
// unchanged tree writes the same bytes; --check writes nothing and exits 1 when dist/ is stale
// (test/inspector/bundle.test.ts runs the same comparison in npm test).
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { readCommandLine } from './command-line.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE = join(ROOT, 'src/inspector');
export const DIST = join(ROOT, 'src/sandbox/inspector/dist');

const BANNER = '/* Built by `npm run build:inspector` from src/inspector. Do not edit. */';

export interface BuiltFile {
  name: string;
  text: string;
}

/** The bundle, in memory: inspector.js, inspector.css and index.html. */
export async function buildInspector(): Promise<BuiltFile[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { inspector: join(SOURCE, 'main.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'eof',
    charset: 'utf8',
    write: false,
    outdir: DIST,
    banner: { js: BANNER, css: BANNER },
    logLevel: 'silent',
  });
  const files = result.outputFiles.map((f) => ({ name: relative(DIST, f.path), text: f.text }));
  files.push({ name: 'index.html', text: readFileSync(join(SOURCE, 'index.html'), 'utf8') });
  return files.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Names of the files under dist/ that differ from a fresh build (missing ones included). */
export function staleFiles(files: BuiltFile[]): string[] {
  return files.filter((f) => {
    try {
      return readFileSync(join(DIST, f.name), 'utf8') !== f.text;
    } catch {
      return true;
    }
  }).map((f) => f.name);
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function main(): Promise<number> {
  const { values } = readCommandLine({
    command: 'build:inspector',
    usage: 'usage: npm run build:inspector [-- --check]\n  --check   write nothing; exit 1 when the committed bundle differs from a fresh build',
    options: { check: { type: 'boolean', default: false } },
  });
  const check = values.check === true;
  const files = await buildInspector();
  let total = 0;
  let totalGz = 0;
  for (const f of files) {
    const raw = Buffer.byteLength(f.text);
    const gz = gzipSync(f.text, { level: 9 }).length;
    total += raw;
    totalGz += gz;
    process.stdout.write(`  ${f.name.padEnd(16)} ${kb(raw).padStart(10)}   gzip ${kb(gz).padStart(9)}\n`);
  }
  process.stdout.write(`  ${'total'.padEnd(16)} ${kb(total).padStart(10)}   gzip ${kb(totalGz).padStart(9)}\n`);
  const stale = staleFiles(files);
  if (check) {
    if (stale.length === 0) {
      process.stdout.write('inspector bundle is up to date\n');
      return 0;
    }
    process.stderr.write(`inspector bundle is stale: ${stale.join(', ')} (run npm run build:inspector)\n`);
    return 1;
  }
  mkdirSync(DIST, { recursive: true });
  for (const f of files) if (stale.includes(f.name)) writeFileSync(join(DIST, f.name), f.text);
  process.stdout.write(`inspector bundle: ${stale.length} written, ${files.length - stale.length} unchanged in ${relative(ROOT, DIST)}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`build:inspector: ${(error as Error)?.message ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
