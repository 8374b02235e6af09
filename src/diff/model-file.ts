// The previous model: `npm run generate` keeps the normalised model it generated from, with the release history,
// in `<out>/.model.json`, and compares the next run's model with it. A missing or unreadable file is not an
// error: the run says so and is a first release.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiModel } from '../model/ir.js';
import type { ReleaseHistory } from './release.js';

export const MODEL_FILE = '.model.json';

export interface ModelFile extends ReleaseHistory {
  model: ApiModel;
}

export type Previous = { ok: true; file: ModelFile } | { ok: false; reason: string };

function isModelFile(value: unknown): value is ModelFile {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Partial<ModelFile>;
  return (
    typeof v.version === 'string' &&
    /^\d+\.\d+\.\d+$/.test(v.version) &&
    Array.isArray(v.releases) &&
    v.model !== null &&
    typeof v.model === 'object' &&
    Array.isArray(v.model.operations) &&
    typeof v.model.schemas === 'object' &&
    v.model.schemas !== null
  );
}

export async function readPreviousModel(out: string): Promise<Previous> {
  const path = join(out, MODEL_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${path} does not exist` : `${path} cannot be read (${(error as Error).message})` };
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (!isModelFile(value)) return { ok: false, reason: `${path} is not a model file of this tool` };
    return { ok: true, file: value };
  } catch (error) {
    return { ok: false, reason: `${path} is not JSON (${(error as Error).message})` };
  }
}

/** The file's value (the writer lays it out, with the header as its first key). */
export function modelFile(model: ApiModel, history: ReleaseHistory): ModelFile {
  return { version: history.version, releases: history.releases, model };
}
