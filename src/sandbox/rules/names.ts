// The names of the sandbox's rule modules and of the events they raise and handle: the one list. It types the
// registry (rules/index.ts: Record<RuleName, Rule>, so a name without a module, or a module without a name, fails
// tsc) and is handed to the model as the names `x-rules`, `x-handlers` and `x-emits` may use (src/pipeline.ts), so a
// typo in the spec fails at generation. The model itself knows no rule or event of this API.

export const RULE_NAMES = [
  'agent-delete-guard',
  'agent-normalize',
  'alert-events',
  'alert-replace-sets',
  'alert-test-evaluate',
  'audio-attach',
  'audio-validate',
  'baseline-history',
  'baseline-sigma-bands',
  'conversation-audio-url',
  'conversation-list-summary',
  'conversation-metric-breakdown',
  'conversation-metric-outputs',
  'conversation-metric-values',
  'deliver-webhooks',
  'evaluate-alerts',
  'metric-catalog',
  'metric-flow',
  'metric-organization-threshold',
  'metric-flow-filter',
  'metric-recently-deleted',
  'metric-restore',
  'metric-sql-schema',
  'metric-threshold',
  'metric-threshold-scope',
  'persona-background-sound',
  'persona-custom-data',
  'persona-discovery',
  'persona-prompt-null',
  'persona-sound-upload',
  'persona-voice',
  'review-disagreement',
  'review-insights',
  'review-metric-agreement',
  'review-progress',
  'review-project-links',
  'run-cancel',
  'run-pin-versions',
  'serve-catalog',
  'simulation-rerun-metrics',
  'simulation-resimulate',
  'tag-summary',
  'test-case-grid-order',
  'test-set-agents',
  'test-set-records',
  'test-set-snapshot',
  'update-baselines',
  'version-revert',
  'webhook-url',
  'workspace-slug',
] as const;

export type RuleName = (typeof RULE_NAMES)[number];

export const EVENT_NAMES = [
  'run.completed',
  'conversation.submitted',
  'conversation.audio-attached',
  'simulation.metrics-rerun',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];
