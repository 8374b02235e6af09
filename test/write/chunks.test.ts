// Large modules are formatted in pieces of top-level statements: the pieces rejoin to the exact text, cuts fall
// only before a column-0 statement or comment after a blank line, formatting in pieces gives the bytes formatting
// the whole file gives, and a file whose pieces do not stand alone (a template literal spanning a cut) is
// formatted whole.
import { describe, expect, it } from 'vitest';
import { splitAtTopLevel } from '../../src/write/chunks.js';
import { formatFile } from '../../src/write/format.js';
import { renderFiles } from '../../src/write/write.js';

const fn = (i: number): string => `// check ${i}\nfunction $c${i}(x){ if (typeof x!=="string") return false;\n\n  return x.length<=${i} }\n`;
const module = Array.from({ length: 400 }, (_, i) => fn(i)).join('\n') + '\nexport const all = [' + Array.from({ length: 400 }, (_, i) => `$c${i}`).join(',') + '];\n';

describe('splitAtTopLevel', () => {
  it('cuts at top-level boundaries only, and the pieces rejoin to the text', () => {
    const pieces = splitAtTopLevel(module, 2000);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('\n')).toBe(module);
    // The blank line inside each function body is followed by an indented line: never a cut.
    for (const piece of pieces.slice(1)) expect(piece).toMatch(/^(\/\/ check \d+|export const)/);
    expect(splitAtTopLevel('const a = 1;\n\nconst b = 2;\n', 2000)).toEqual(['const a = 1;\n\nconst b = 2;\n']);
  });

  it('formats in pieces exactly as the whole file formats', async () => {
    const whole = await formatFile('m.js', module);
    const pieces = await Promise.all(splitAtTopLevel(module, 2000).map((piece) => formatFile('m.js', piece)));
    expect(pieces.join('\n')).toBe(whole);
  });

  it('renders a large module that cannot be cut safely as a whole file', async () => {
    // A template literal with blank lines and column-0 words inside: a cut there leaves pieces that do not parse.
    const text = `export const doc = \`${Array.from({ length: 30_000 }, (_, i) => `line ${i}\n\nword ${i}`).join('\n')}\`;\n`;
    expect(text.length).toBeGreaterThan(600_000);
    const rendered = await renderFiles([{ path: 'pkg/doc.js', kind: 'asset', contents: text }], 'abc');
    expect(rendered.get('pkg/doc.js')!.split('\n').slice(1).join('\n')).toBe(await formatFile('pkg/doc.js', text));
  });
});
