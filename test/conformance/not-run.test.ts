// "Not run, and why" (issue 27): a check whose precondition a spec lacks is listed with its reason in the report,
// never silently dropped and never counted as skipped. Every check either ran on some operation or is listed.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/conformance/checks/index.js';
import type { Check } from '../../src/conformance/checks/context.js';
import { lacks } from '../../src/conformance/result.js';
import { RULE_CHECKS } from '../../src/conformance/checks/rules/index.js';
import { notRunChecks } from '../../src/conformance/not-run.js';
import { junit, summary, table } from '../../src/conformance/report.js';
import { generatedSuite } from '../../src/conformance/suite-data.js';
import { conformanceOf, generateFor } from '../../scripts/any-spec-run.js';
import { writeSpec } from '../support/any-spec.js';
import { widgetsSpec } from '../support/widgets-spec.js';

describe('checks not run for lack of a precondition', () => {
  it('every generic check says what it needs (rule checks are named by their rule)', () => {
    const unexplained = CHECKS.filter((c) => !RULE_CHECKS.includes(c) && (c.needs === undefined || c.needs.trim() === '')).map((c) => c.name);
    expect(unexplained).toEqual([]);
  });

  it('a spec without our vocabulary: each check ran on an operation or is listed with its reason; the report shows them apart from skips', async () => {
    const generated = await generateFor(writeSpec(widgetsSpec({ scheme: { type: 'apiKey', in: 'header', name: 'X-Key' } })));
    const results = await conformanceOf(generated);
    const notRun = notRunChecks(generated.suite);
    const ran = new Set(results.map((r) => r.check));
    const listed = new Set(notRun.map((n) => n.check));
    // Disjoint, and together every check of the suite.
    expect([...listed].filter((c) => ran.has(c))).toEqual([]);
    expect(CHECKS.map((c) => c.name).filter((c) => !ran.has(c) && !listed.has(c))).toEqual([]);
    // The widgets list is not paged and the spec has no x- vocabulary: those checks are listed, with the reason.
    const paging = notRun.find((n) => n.check.startsWith('lists: page_size and page_token'));
    expect(paging?.reason).toBe('needs a paged list (x-pagination, or inferred paging parameters and answer); the spec has none');
    expect(notRun.find((n) => n.check.startsWith('soft delete:'))?.reason).toMatch(/x-soft-delete/);
    expect(notRun.some((n) => n.reason === 'no operation names the rule it checks (x-rules, x-handlers)')).toBe(true);
    // Checks that ran are not listed: the widgets resource has creates, gets and lists.
    expect(listed.has('happy path: documented status, body matches the spec')).toBe(false);

    const report = table(results, notRun);
    expect(report).toContain(`not run  ${paging!.check}\n      ${paging!.reason}`);
    const s = summary(results);
    expect(report).toContain(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped (${results.length - s.notRun} checks`);
    expect(report).toContain(`; ${notRun.length + s.notRun} not run for lack of a precondition`);
    const xml = junit(results, 'conformance', notRun);
    expect(xml).toContain('<testsuite name="not run" tests="0" failures="0" skipped="0">');
    expect(xml).toMatch(new RegExp(`<testsuites name="conformance" tests="${results.length - s.notRun}" failures="${s.failed}" skipped="${s.skipped}">`));
  }, 300_000);

  it('a check that finds, once it looks, that the operation lacks what it needs is not run on it, with the reason, and is no skip', async () => {
    const generated = await generateFor(writeSpec(widgetsSpec({ scheme: { type: 'apiKey', in: 'header', name: 'X-Key' } })));
    const looks: Check = {
      name: 'a check needing two constraints',
      needs: 'two independent constraints',
      applies: (route) => route.method === 'POST',
      run: async () => lacks('fewer than two independent violations can be built for this operation'),
    };
    const results = await conformanceOf(generated, { checks: [looks] });
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r).toMatchObject({ check: looks.name, outcome: 'not-run', detail: 'fewer than two independent violations can be built for this operation' });
    const s = summary(results);
    expect(s).toMatchObject({ passed: 0, failed: 0, skipped: 0, notRun: results.length });
    const report = table(results);
    expect(report).toContain(`not run  ${results[0]!.operation}: ${looks.name}\n      fewer than two`);
    expect(report).toContain(`0 passed, 0 failed, 0 skipped (0 checks`);
    expect(report).toContain(`; ${results.length} not run for lack of a precondition`);
    // JUnit: no test case (nor skip) for it; it is output of the "not run" suite.
    const xml = junit(results);
    expect(xml).toContain('<testsuites name="conformance" tests="0" failures="0" skipped="0">');
    expect(xml).toContain(`${results[0]!.operation}: ${looks.name}: fewer than two`);
    expect(xml).not.toContain('<testcase');
  }, 300_000);

  it('our spec: its paging, workspace and version checks all apply, so none of them is listed', () => {
    const listed = notRunChecks(generatedSuite).map((n) => n.check);
    for (const prefix of ['lists: page_size', 'workspaces: a workspace header naming', 'versions: each version', 'auth: a key without the permission']) expect(listed.some((c) => c.startsWith(prefix))).toBe(false);
  });
});
