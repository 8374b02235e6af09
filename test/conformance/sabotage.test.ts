// The suite catches broken semantics: with one rule module of the sandbox replaced by a do-nothing module,
// the checks of the operations that use it fail, and the failure names the rule.
import { describe, expect, it } from 'vitest';
import { routes } from '../../generated/conformance/suite.js';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import { runSuite } from '../../src/conformance/run.js';
import { RULES } from '../../src/sandbox/rules/index.js';

/**
 * Rules whose breakage the suite must detect on the operations that name them in x-rules. Not in the list:
 * persona-voice, persona-background-sound (which voices, languages and sounds exist is data of a discovery
 * endpoint, not of the schema), metric-restore (only built-in metrics, which the API cannot create, are not
 * restorable), persona-prompt-null and agent-delete-guard (the states they guard need fixtures the generic
 * suite does not make), review-disagreement, baseline-history, baseline-sigma-bands, audio-validate,
 * persona-discovery, metric-recently-deleted: checked by the sandbox's own tests (test/sandbox).
 */
const OPERATION_RULES = [
  'alert-replace-sets',
  'version-revert',
  'webhook-url',
  'test-set-snapshot',
  'audio-attach',
  'persona-custom-data',
  'serve-catalog',
  'run-pin-versions',
  'agent-normalize',
  'test-case-grid-order',
];

/** Event handlers: breaking one fails the event check of the handler's resource. */
const EVENT_RULES: [string, string][] = [
  ['evaluate-alerts', 'createAlert'],
  ['update-baselines', 'createBaseline'],
  ['deliver-webhooks', 'createWebhook'],
];

describe('a rule broken on purpose', () => {
  it.each(OPERATION_RULES)('%s: the suite fails on an operation that names it', async (rule) => {
    const { target, sandbox } = await inProcessTarget({ rules: { [rule]: {} } });
    try {
      const operations = routes.filter((r) => r.rules.includes(rule)).map((r) => r.id);
      expect(operations.length).toBeGreaterThan(0);
      const results = await runSuite(target, { operations });
      const failed = results.filter((r) => r.outcome === 'fail');
      expect(failed.length, `no check failed with ${rule} broken`).toBeGreaterThan(0);
      expect(failed.every((r) => r.rules.includes(rule))).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  it.each(EVENT_RULES)('%s: the event check of %s fails', async (rule, operation) => {
    const { target, sandbox } = await inProcessTarget({ rules: { [rule]: {} } });
    try {
      const results = await runSuite(target, { operations: [operation], check: 'events:' });
      expect(results).toHaveLength(1);
      expect(results[0]!.outcome).toBe('fail');
    } finally {
      await sandbox.close();
    }
  });
});

/**
 * Every rule module of the sandbox, replaced by a do-nothing module: the checks named for that rule
 * (`rule <name>: ...`, src/conformance/checks/rules/) fail. This is what the rule-specific checks are for: the
 * schemas say a rule applies, these checks know what it computes.
 */
describe('a rule module replaced by one that does nothing', () => {
  it.each(Object.keys(RULES).sort())('%s: a check named for it fails', async (rule) => {
    const { target, sandbox } = await inProcessTarget({ rules: { [rule]: {} } });
    try {
      const results = await runSuite(target, { check: `rule ${rule}: ` });
      expect(results.length, `no check is named for ${rule}`).toBeGreaterThan(0);
      const failed = results.filter((r) => r.outcome === 'fail');
      expect(failed.length, `every check named for ${rule} passed with the rule broken`).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
