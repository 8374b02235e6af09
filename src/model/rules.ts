// Names of the hand-written rule modules that `x-rules` and `x-handlers` may name. The sandbox wires
// each name to a module; the model refuses names not listed here, so a typo in the spec fails at generation.

export const KNOWN_RULES: ReadonlySet<string> = new Set([
  // operation rules
  'agent-delete-guard',
  'version-revert',
  'run-pin-versions',
  'test-set-snapshot',
  'persona-prompt-null',
  'persona-custom-data',
  'persona-voice',
  'persona-background-sound',
  'audio-validate',
  'audio-attach',
  'metric-restore',
  'baseline-history',
  'alert-replace-sets',
  'review-disagreement',
  'webhook-url',
  'serve-catalog',
  'agent-normalize',
  'persona-discovery',
  'metric-recently-deleted',
  'baseline-sigma-bands',
  'conversation-list-summary',
  'test-case-grid-order',
  // issue 15 part B: personas, metrics, test sets
  'persona-sound-upload',
  'tag-summary',
  'metric-catalog',
  'metric-flow',
  'metric-flow-filter',
  'metric-threshold',
  'metric-threshold-scope',
  'test-set-agents',
  'test-set-records',
  // runs, review projects, workspaces, agents (issue 15 part C)
  'review-project-links',
  'review-progress',
  'review-insights',
  'review-metric-agreement',
  'workspace-slug',
  'agent-duplicate',
  // alerts and conversations (issue 15, part A)
  'alert-events',
  'alert-test-evaluate',
  'conversation-audio-url',
  'conversation-metric-outputs',
  'conversation-metric-values',
  'simulation-rerun-metrics',
  'simulation-resimulate',
  // event handlers
  'evaluate-alerts',
  'update-baselines',
  'deliver-webhooks',
]);

export const KNOWN_EVENTS: ReadonlySet<string> = new Set(['run.completed', 'conversation.submitted', 'conversation.audio-attached', 'simulation.metrics-rerun']);
