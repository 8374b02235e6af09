// The release a generate run makes: the new model compared with the previous one, the changes classified, the
// version bumped by semver and the history extended (nothing changes when nothing changed).
import type { ApiModel } from '../model/ir.js';
import type { Change } from './change.js';
import { compareModels } from './compare.js';
import type { Previous } from './model-file.js';
import { firstRelease, type ReleaseHistory } from './release.js';
import { bumpFor, nextVersion, type Bump } from './semver.js';

export type { Change, Level } from './change.js';
export { MODEL_FILE, modelFile, readPreviousModel, type Previous } from './model-file.js';
export type { Release, ReleaseHistory } from './release.js';
export { bumpFor, nextVersion, type Bump } from './semver.js';
export { compareModels } from './compare.js';

export interface ReleasePlan {
  history: ReleaseHistory;
  changes: Change[];
  bump: Bump;
  /** Why this is a first release (no usable previous model), if it is one. */
  firstReason?: string;
}

export function planRelease(previous: Previous, model: ApiModel): ReleasePlan {
  if (!previous.ok) return { history: firstRelease(), changes: [], bump: 'none', firstReason: previous.reason };
  const changes = compareModels(previous.file.model, model);
  const bump = bumpFor(changes);
  if (bump === 'none') return { history: { version: previous.file.version, releases: previous.file.releases }, changes, bump };
  const version = nextVersion(previous.file.version, bump);
  return { history: { version, releases: [{ version, first: false, changes }, ...previous.file.releases] }, changes, bump };
}

/** The report `npm run generate` prints: the counts, then one line per change. */
export function formatReport(plan: ReleasePlan): string[] {
  if (plan.firstReason !== undefined) return [`previous model: ${plan.firstReason}; this is a first release (${plan.history.version})`];
  const breaking = plan.changes.filter((c) => c.level === 'breaking').length;
  const description = plan.changes.filter((c) => c.level === 'description').length;
  const lines = [`${breaking} breaking, ${plan.changes.length - breaking - description} non-breaking changes (${description} description-only); version ${plan.history.version}${plan.bump === 'none' ? ' (unchanged)' : ` (${plan.bump})`}`];
  for (const c of plan.changes) lines.push(`  ${c.level.padEnd(12)} ${c.subject}  ${c.pointer}  ${c.kind}${c.detail ? ` (${c.detail})` : ''}`);
  return lines;
}
