// The suite's remote documents (its remotes/ folder, beside draft2020-12/), which the suite serves at
// http://localhost:1234/ file for file. They are given to the compiler as documents by that URI (the compiler's
// `resources`), so references to them resolve with no server and no network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { SchemaNode } from '../../src/emit/validators/compile.js';

export const REMOTE_BASE = 'http://localhost:1234/';

/** Every `*.json` under `<suite>/../remotes`, by the URL the suite serves it at. */
export function loadRemotes(suiteDir: string): Map<string, SchemaNode> {
  const root = join(dirname(suiteDir), 'remotes');
  const out = new Map<string, SchemaNode>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) out.set(REMOTE_BASE + relative(root, path).split(sep).join('/'), JSON.parse(readFileSync(path, 'utf8')) as SchemaNode);
    }
  };
  walk(root);
  return out;
}
