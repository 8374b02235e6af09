// What a generate run releases: the version every package of the spec carries and the history its CHANGELOG
// shows, kept in the previous model file (see model-file.ts) from run to run.
import type { Change } from './change.js';

export interface Release {
  version: string;
  /** The first release (no earlier model to compare with). */
  first: boolean;
  changes: Change[];
}

export interface ReleaseHistory {
  /** The current version (the newest release's). */
  version: string;
  /** Newest first. */
  releases: Release[];
}

export const FIRST_VERSION = '0.1.0';

export function firstRelease(version: string = FIRST_VERSION): ReleaseHistory {
  return { version, releases: [{ version, first: true, changes: [] }] };
}
