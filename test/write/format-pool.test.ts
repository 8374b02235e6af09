// Formatting in worker threads gives exactly the bytes formatting on the main thread gives, whichever worker
// takes which file; a file prettier cannot parse is an error naming the problem, not a hang.
import { describe, expect, it } from 'vitest';
import { FormatPool } from '../../src/write/format-pool.js';
import { formatFile } from '../../src/write/format.js';

const sources: [string, string][] = Array.from({ length: 12 }, (_, i) => [
  i % 3 === 0 ? `f${i}.d.ts` : i % 3 === 1 ? `f${i}.js` : `f${i}.md`,
  i % 3 === 0 ? `export declare const v${i}: {a:string,b:number}[];\n` : i % 3 === 1 ? `export const v${i} = {"a":[1,2,3], b: "x${'y'.repeat(i * 40)}"};\n` : `# Title ${i}\n\n*  item\n*  item\n`,
]);

describe('format pool', () => {
  it('formats in workers byte-identically to the main thread', async () => {
    const pool = new FormatPool(Number.MAX_SAFE_INTEGER, 0);
    try {
      const inWorkers = await Promise.all(sources.map(([path, text]) => pool.format(path, text)));
      const here = await Promise.all(sources.map(([path, text]) => formatFile(path, text)));
      expect(inWorkers).toEqual(here);
      expect(pool.stats.threads).toBeGreaterThanOrEqual(1);
      expect(inWorkers[1]).toContain("a: [1, 2, 3]");
    } finally {
      await pool.close();
    }
  });

  it('rejects a file prettier cannot parse with its message', async () => {
    const pool = new FormatPool(Number.MAX_SAFE_INTEGER, 0);
    try {
      await expect(pool.format('broken.js', 'export const = ;')).rejects.toThrow(/Unexpected token|expected/i);
      // The pool still works afterwards.
      expect(await pool.format('ok.js', 'const a={b:1}\n')).toBe('const a = { b: 1 };\n');
    } finally {
      await pool.close();
    }
  });
});
