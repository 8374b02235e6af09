// CHANGELOG.md of a generated package, from templates/package/CHANGELOG.md.hbs: every release of the spec, newest
// first, with the classified changes that made its version.
import type { ReleaseHistory } from '../../diff/release.js';
import { renderTemplate } from '../templates.js';

export function changelog(packageName: string, history: ReleaseHistory): string {
  return renderTemplate('package/CHANGELOG.md.hbs', {
    packageName,
    releases: history.releases.map((r) => {
      const breaking = r.changes.filter((c) => c.level === 'breaking').length;
      const description = r.changes.filter((c) => c.level === 'description').length;
      const summary = `${breaking} breaking, ${r.changes.length - breaking - description} non-breaking, ${description} description-only change(s).`;
      return { version: r.version, first: r.first, summary, changes: r.changes.map((c) => ({ ...c, detail: c.detail ?? '' })) };
    }),
  });
}
