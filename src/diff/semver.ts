// The next version from the classified changes: major for a breaking change, minor for an addition, patch for
// descriptions only, the same version when nothing changed.
import type { Change } from './change.js';

export type Bump = 'major' | 'minor' | 'patch' | 'none';

export function bumpFor(changes: readonly Change[]): Bump {
  if (changes.some((c) => c.level === 'breaking')) return 'major';
  if (changes.some((c) => c.level === 'non-breaking')) return 'minor';
  return changes.length > 0 ? 'patch' : 'none';
}

export function nextVersion(version: string, bump: Bump): string {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) throw new Error(`not a release version: ${version}`);
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
  return version;
}
