// The suite's output: a per-operation table for the terminal, the failures and skips with their reasons, and
// JUnit XML for CI.
import type { CheckResult, NotRun } from './result.js';

export function summary(results: CheckResult[]): { passed: number; failed: number; skipped: number; notRun: number } {
  return {
    passed: results.filter((r) => r.outcome === 'pass').length,
    failed: results.filter((r) => r.outcome === 'fail').length,
    skipped: results.filter((r) => r.outcome === 'skip').length,
    notRun: results.filter((r) => r.outcome === 'not-run').length,
  };
}

const LABEL: Record<CheckResult['outcome'], string> = { pass: 'pass', fail: 'FAIL', skip: 'skip', 'not-run': 'not run' };

/** The terminal report; `notRun`: the checks the spec gives nothing to check (not-run.ts), listed with their reason. */
export function table(results: CheckResult[], notRun: readonly NotRun[] = []): string {
  const byOp = new Map<string, CheckResult[]>();
  for (const r of results) byOp.set(r.operation, [...(byOp.get(r.operation) ?? []), r]);
  const width = Math.max(9, ...[...byOp.keys()].map((k) => k.length));
  const lines = [`${'operation'.padEnd(width)}  passed  failed  skipped`];
  for (const [op, rs] of byOp) {
    const s = summary(rs);
    lines.push(`${op.padEnd(width)}  ${String(s.passed).padStart(6)}  ${String(s.failed).padStart(6)}  ${String(s.skipped).padStart(7)}`);
  }
  const bad = results.filter((r) => r.outcome !== 'pass');
  if (bad.length > 0) {
    lines.push('');
    for (const r of bad) {
    const rules = r.outcome === 'fail' && r.rules.length > 0 ? ` [rules: ${r.rules.join(', ')}]` : '';
    lines.push(`${LABEL[r.outcome]}  ${r.operation}: ${r.check}${rules}\n      ${r.detail ?? ''}`);
  }
  }
  if (notRun.length > 0) {
    lines.push('');
    for (const n of notRun) lines.push(`not run  ${n.check}\n      ${n.reason}`);
  }
  const s = summary(results);
  const notRunText = notRun.length + s.notRun > 0 ? `; ${notRun.length + s.notRun} not run for lack of a precondition` : '';
  lines.push('', `Conformance: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped (${results.length - s.notRun} checks, ${byOp.size} operations)${notRunText}`);
  return lines.join('\n');
}

function xml(text: string): string {
  // XML 1.0 cannot carry most control characters at all: they are dropped; the rest is escaped.
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** JUnit XML; the not-run checks are listed in a suite of their own as output, not as tests (nor as skips). */
export function junit(all: CheckResult[], name = 'conformance', staticNotRun: readonly NotRun[] = []): string {
  const results = all.filter((r) => r.outcome !== 'not-run');
  const notRun = [...staticNotRun, ...all.filter((r) => r.outcome === 'not-run').map((r) => ({ check: `${r.operation}: ${r.check}`, reason: r.detail ?? '' }))];
  const byOp = new Map<string, CheckResult[]>();
  for (const r of results) byOp.set(r.operation, [...(byOp.get(r.operation) ?? []), r]);
  const total = summary(results);
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="${xml(name)}" tests="${results.length}" failures="${total.failed}" skipped="${total.skipped}">`];
  for (const [op, rs] of byOp) {
    const s = summary(rs);
    out.push(`  <testsuite name="${xml(op)}" tests="${rs.length}" failures="${s.failed}" skipped="${s.skipped}" time="${(rs.reduce((a, r) => a + r.ms, 0) / 1000).toFixed(3)}">`);
    for (const r of rs) {
      out.push(`    <testcase classname="${xml(op)}" name="${xml(r.check)}" time="${(r.ms / 1000).toFixed(3)}">`);
      if (r.outcome === 'fail') out.push(`      <failure message="${xml((r.detail ?? '').slice(0, 500))}">${xml(r.detail ?? '')}</failure>`);
      if (r.outcome === 'skip') out.push(`      <skipped message="${xml(r.detail ?? '')}"/>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  if (notRun.length > 0) {
    out.push('  <testsuite name="not run" tests="0" failures="0" skipped="0">');
    out.push(`    <system-out>${xml(notRun.map((n) => `${n.check}: ${n.reason}`).join('\n'))}</system-out>`);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
