// `npm run examples`: regenerates the committed examples (scripts/examples.ts) with the real CLI;
// `-- --check` writes nothing and exits 1 listing the files that are stale.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { EXAMPLES, REPO, committedPath, generateExample } from './examples.js';
import { readCommandLine } from './command-line.js';

const { values } = readCommandLine({
  command: 'examples',
  usage: 'usage: npm run examples [-- --check]\n  --check   write nothing; exit 1 listing the committed examples that are stale',
  options: { check: { type: 'boolean', default: false } },
});
const check = values.check === true;
const stale: string[] = [];
for (const example of EXAMPLES) {
  for (const [file, text] of generateExample(example)) {
    const path = committedPath(example, file);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    stale.push(relative(REPO, path));
    if (!check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
}
if (check && stale.length > 0) {
  console.error(`stale examples (run npm run examples):\n${stale.map((s) => `  ${s}`).join('\n')}`);
  process.exit(1);
}
console.log(stale.length === 0 ? 'examples are up to date' : `written: ${stale.join(', ')}`);
