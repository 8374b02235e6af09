// The rule modules, by the name x-rules and x-handlers use in spec/. The names are the one list of ./names.ts:
// the registry is typed by it, so a module without a name, or a name without a module, fails tsc.
import type { Rule } from '../engine/hooks.js';
import type { RuleName } from './names.js';
import { agentDeleteGuard } from './agent-delete-guard.js';
import { agentNormalize } from './agent-normalize.js';
import { alertReplaceSets } from './alert-replace-sets.js';
import { alertEvents } from './alert-events.js';
import { alertTestEvaluate } from './alert-test-evaluate.js';
import { conversationAudioUrl } from './conversation-audio-url.js';
import { conversationMetricBreakdown } from './conversation-metric-breakdown.js';
import { conversationMetricOutputs } from './conversation-metric-outputs.js';
import { conversationMetricValues } from './conversation-metric-values.js';
import { simulationRerunMetrics } from './simulation-rerun-metrics.js';
import { simulationResimulate } from './simulation-resimulate.js';
import { runCancel } from './run-cancel.js';
import { audioAttach } from './audio-attach.js';
import { audioValidate } from './audio-validate.js';
import { baselineHistory } from './baseline-history.js';
import { baselineSigmaBands } from './baseline-sigma-bands.js';
import { conversationListSummary } from './conversation-list-summary.js';
import { testCaseGridOrder } from './test-case-grid-order.js';
import { deliverWebhooks } from './deliver-webhooks.js';
import { evaluateAlerts } from './evaluate-alerts.js';
import { metricRecentlyDeleted } from './metric-recently-deleted.js';
import { metricRestore } from './metric-restore.js';
import { personaBackgroundSound } from './persona-background-sound.js';
import { personaCustomData } from './persona-custom-data.js';
import { personaDiscovery } from './persona-discovery.js';
import { personaPromptNull } from './persona-prompt-null.js';
import { personaVoice } from './persona-voice.js';
import { reviewDisagreement } from './review-disagreement.js';
import { runPinVersions } from './run-pin-versions.js';
import { serveCatalog } from './serve-catalog.js';
import { testSetSnapshot } from './test-set-snapshot.js';
import { updateBaselines } from './update-baselines.js';
import { versionRevert } from './version-revert.js';
import { webhookUrl } from './webhook-url.js';
// issue 15 part B: personas, metrics, test sets
import { metricCatalog } from './metric-catalog.js';
import { metricFlow } from './metric-flow.js';
import { metricOrganizationThreshold } from './metric-organization-threshold.js';
import { metricSqlSchema } from './metric-sql-schema.js';
import { metricSqlTest } from './metric-sql-test.js';
import { metricTest } from './metric-test.js';
import { metricFlowFilter } from './metric-flow-filter.js';
import { metricThreshold } from './metric-threshold.js';
import { metricThresholdScope } from './metric-threshold-scope.js';
import { personaSoundUpload } from './persona-sound-upload.js';
import { tagSummary } from './tag-summary.js';
import { testSetAgents } from './test-set-agents.js';
import { testSetRecords } from './test-set-records.js';
// runs, review projects, workspaces, agents (issue 15 part C)
import { reviewProjectLinks } from './review-project-links.js';
import { reviewProgress } from './review-progress.js';
import { reviewInsights } from './review-insights.js';
import { reviewMetricAgreement } from './review-metric-agreement.js';
import { workspaceSlug } from './workspace-slug.js';
// the newer client (issue 30)
import { metricOutputBatchGet } from './metric-output-batch-get.js';
import { reviewCompleteConversation } from './review-complete-conversation.js';
import { tagListFilters } from './tag-list-filters.js';

export const RULES: Record<RuleName, Rule> = {
  'agent-delete-guard': agentDeleteGuard,
  'agent-normalize': agentNormalize,
  'alert-replace-sets': alertReplaceSets,
  'audio-attach': audioAttach,
  'audio-validate': audioValidate,
  'baseline-history': baselineHistory,
  'baseline-sigma-bands': baselineSigmaBands,
  'conversation-list-summary': conversationListSummary,
  'test-case-grid-order': testCaseGridOrder,
  'deliver-webhooks': deliverWebhooks,
  'evaluate-alerts': evaluateAlerts,
  'metric-recently-deleted': metricRecentlyDeleted,
  'metric-restore': metricRestore,
  'persona-background-sound': personaBackgroundSound,
  'persona-custom-data': personaCustomData,
  'persona-discovery': personaDiscovery,
  'persona-prompt-null': personaPromptNull,
  'persona-voice': personaVoice,
  'review-disagreement': reviewDisagreement,
  'run-cancel': runCancel,
  'run-pin-versions': runPinVersions,
  'serve-catalog': serveCatalog,
  'test-set-snapshot': testSetSnapshot,
  'update-baselines': updateBaselines,
  'version-revert': versionRevert,
  'webhook-url': webhookUrl,
  // issue 15 part B: personas, metrics, test sets
  'metric-catalog': metricCatalog,
  'metric-flow': metricFlow,
  'metric-organization-threshold': metricOrganizationThreshold,
  'metric-sql-schema': metricSqlSchema,
  'metric-sql-test': metricSqlTest,
  'metric-test': metricTest,
  'metric-flow-filter': metricFlowFilter,
  'metric-threshold': metricThreshold,
  'metric-threshold-scope': metricThresholdScope,
  'persona-sound-upload': personaSoundUpload,
  'tag-summary': tagSummary,
  'test-set-agents': testSetAgents,
  'test-set-records': testSetRecords,
  // runs, review projects, workspaces, agents (issue 15 part C)
  'review-project-links': reviewProjectLinks,
  'review-progress': reviewProgress,
  'review-insights': reviewInsights,
  'review-metric-agreement': reviewMetricAgreement,
  'workspace-slug': workspaceSlug,
  // alerts and conversations (issue 15, part A)
  'alert-events': alertEvents,
  'alert-test-evaluate': alertTestEvaluate,
  'conversation-audio-url': conversationAudioUrl,
  'conversation-metric-breakdown': conversationMetricBreakdown,
  'conversation-metric-outputs': conversationMetricOutputs,
  'conversation-metric-values': conversationMetricValues,
  'simulation-rerun-metrics': simulationRerunMetrics,
  'simulation-resimulate': simulationResimulate,
  // the newer client (issue 30)
  'metric-output-batch-get': metricOutputBatchGet,
  'review-complete-conversation': reviewCompleteConversation,
  'tag-list-filters': tagListFilters,
};
