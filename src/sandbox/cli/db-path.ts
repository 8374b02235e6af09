// Whether a SQLite database path given to the sandbox command can be used, decided before anything opens it, so
// a path that cannot work is one line naming the path and the reason (exit 2), not a raw EEXIST from mkdir or a
// folder chain created by a typo. The file's folder is created when only that last level is missing (the
// default `.sandbox/` in a fresh checkout); a deeper missing chain is refused.
import { accessSync, constants, mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why the path cannot be used (after creating the last missing folder level), or undefined when it can. */
export function sqlitePathProblem(path: string): string | undefined {
  const file = resolve(path);
  const existing = stat(file);
  if (existing?.isDirectory()) return `${path} is a folder; give a file path inside it`;
  if (existing !== undefined) return writable(file) ? undefined : `cannot write ${path} (permission denied)`;
  const folder = dirname(file);
  const folderStat = stat(folder);
  if (folderStat === undefined) {
    const parent = stat(dirname(folder));
    if (parent === undefined) return `folder ${dirname(folder)} does not exist (create it first)`;
    if (!parent.isDirectory()) return `${dirname(folder)} is not a folder`;
    try {
      mkdirSync(folder);
    } catch (error) {
      return `cannot create folder ${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    }
    return undefined;
  }
  if (!folderStat.isDirectory()) return `${folder} is not a folder`;
  return writable(folder) ? undefined : `cannot write in folder ${folder} (permission denied)`;
}
