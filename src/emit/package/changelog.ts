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
      const changes = r.changes.map((c) => ({ level: c.level, kind: c.kind, subject: codeSpan(c.subject), pointer: codeSpan(c.pointer), detail: c.detail ? codeSpan(c.detail) : '' }));
      return { version: r.version, first: r.first, summary, changes };
    }),
  });
}

/**
 * Spec-derived text as a Markdown code span: shown literally (no HTML, no emphasis, no entities), whatever it holds.
 * The fence is one backtick longer than the longest run inside; line breaks become spaces.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
