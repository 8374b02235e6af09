// Every ```ts block of README.md and of each generated package's README compiles under `tsc --strict` in a fresh
// ESM project that installed the packed packages, with the tsconfig README.md tells consumers to write (its
// ```json block). A block that does not compile fails the test with the README, the block's line and the error.
//
// Install scripts are not run (`--ignore-scripts`): type-checking needs no native build, so this stays quick; the
// packages' run-time behaviour from the tarballs is packages.test.ts's concern.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { npm, pack, removeTempDirs, tempDir } from './npm.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROOT_MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const PACKAGE_DIRS = ['client', 'sandbox', 'conformance', 'control-client'];
const READMES = ['README.md', ...PACKAGE_DIRS.map((dir) => `generated/${dir}/README.md`)];
const INSTALL_TIMEOUT = 15 * 60_000;

interface Block {
  readme: string;
  /** 1-based line of the block's first code line in its README. */
  line: number;
  code: string;
}

/** The fenced blocks of one language in a Markdown text, with the line each starts on. */
function fencedBlocks(markdown: string, language: string, readme: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== `\`\`\`${language}`) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    blocks.push({ readme, line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** The compiler options of README.md's tsconfig block (the one a consumer is told to write). */
function readmeCompilerOptions(): ts.CompilerOptions {
  const json = fencedBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'json', 'README.md').find((b) => b.code.includes('"compilerOptions"'));
  if (json === undefined) throw new Error('README.md has no tsconfig ```json block');
  const { options, errors } = ts.convertCompilerOptionsFromJson((JSON.parse(json.code) as { compilerOptions: unknown }).compilerOptions, ROOT);
  if (errors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n'));
  return { ...options, noEmit: true };
}

/** Strict diagnostics of each block, written as its own module file in `project`; one entry per failing block. */
function compileBlocks(project: string, blocks: Block[]): string[] {
  const files = blocks.map((block, i) => {
    const file = join(project, `snippet-${i}.ts`);
    writeFileSync(file, block.code);
    return file;
  });
  // The project's own Node types, as tsc finds them from a tsconfig in the project (not this repository's).
  const program = ts.createProgram(files, { ...readmeCompilerOptions(), typeRoots: [join(project, 'node_modules', '@types')] });
  const failures: string[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const index = d.file === undefined ? -1 : files.indexOf(d.file.fileName);
    const where = index < 0 ? (d.file?.fileName ?? 'program') : `${blocks[index]!.readme}:${blocks[index]!.line + d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line}`;
    failures.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }
  return failures;
}

let project: string;

beforeAll(() => {
  const work = tempDir('readme-snippets-');
  project = tempDir('readme-consumer-');
  // A fresh consumer project, as README.md sets it up: ESM, the packages from their tarballs, TypeScript's Node types.
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'readme-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  const tarballs = PACKAGE_DIRS.map((dir) => join(work, pack(join(ROOT, 'generated', dir), work).filename));
  npm(['install', '--no-audit', '--no-fund', ...tarballs, `@types/node@${ROOT_MANIFEST.devDependencies['@types/node']}`], project, { timeout: INSTALL_TIMEOUT });
}, INSTALL_TIMEOUT + 60_000);

afterAll(() => removeTempDirs());

describe('the TypeScript blocks of the READMEs', () => {
  const blocks = READMES.flatMap((readme) => fencedBlocks(readFileSync(join(ROOT, readme), 'utf8'), 'ts', readme));

  test('are found in README.md and in every package README', () => {
    for (const readme of READMES) expect(blocks.some((b) => b.readme === readme), readme).toBe(true);
  });

  test('each compiles under --strict in a fresh ESM project that installed the packed packages', () => {
    expect(compileBlocks(project, blocks)).toEqual([]);
  });

  test('the check fails on a block that does not compile (so the test above can fail)', () => {
    const broken: Block[] = [
      { readme: 'broken.md', line: 10, code: "import { createClient } from '@evalplatform/client';\nconst client = createClient({ baseUrl: 'x', bearerToken: 'y' });\nconsole.log(client);\n" },
      { readme: 'broken.md', line: 20, code: "import { createClient } from '@evalplatform/client';\nconst n: number = createClient({ baseUrl: 'x' }).raw.baseUrl;\nconsole.log(n);\n" },
    ];
    const failures = compileBlocks(project, broken);
    expect(failures.some((f) => f.startsWith('broken.md:11: ') && f.includes("'bearerToken' does not exist"))).toBe(true);
    expect(failures.some((f) => f.startsWith('broken.md:21: ') && f.includes("not assignable to type 'number'"))).toBe(true);
  });
});
