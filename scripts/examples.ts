// The committed examples of generated output (examples/<name>/): a few files of what `npm run generate` writes for
// one small document of our own spec/, kept as a readable reference a reviewer can diff when an emitter changes.
// Each is produced by the real CLI into a temporary folder; `npm run examples` copies the chosen files, `-- --check`
// (and test/emit/examples.test.ts) fails when a committed copy differs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Example {
  /** Folder under examples/. */
  name: string;
  /** The document, relative to the repository. */
  spec: string;
  /** The generated files kept (paths inside the output folder): the spec-derived ones that show the shape. */
  files: string[];
}

export const EXAMPLES: Example[] = [
  { name: 'tags', spec: 'spec/tags.yaml', files: ['client/types.d.ts', 'client/validators.js', 'client/operations.js', 'client/client.d.ts'] },
];

/** The example's files as the CLI generates them now (path inside examples/<name>/ -> text). */
export function generateExample(example: Example): Map<string, string> {
  const out = mkdtempSync(join(tmpdir(), `example-${example.name}-`));
  try {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/generate.ts', '--spec', example.spec, '--out', out, '--no-cache'], { cwd: REPO, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`npm run generate -- --spec ${example.spec} failed (exit ${result.status}):\n${result.stderr}`);
    return new Map(example.files.map((file) => [file, readFileSync(join(out, file), 'utf8')]));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Where a file of an example is committed. */
export function committedPath(example: Example, file: string): string {
  return join(REPO, 'examples', example.name, file);
}
