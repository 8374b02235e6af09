// Checks of what a named rule computes. The schemas and the x- vocabulary say *that* a rule applies to an
// operation; these modules know what the documentation says it does. Each check applies only where the spec
// names its rule, so a spec without the rule runs none of them.
import type { Check } from '../context.js';
import { checks as alerts } from './alerts.js';
import { checks as personasAudio } from './personas-audio.js';
import { checks as records } from './records.js';
import { checks as runsCancel } from './runs-cancel.js';
import { checks as webhooksBaselines } from './webhooks-baselines.js';
// issue 15 part B
import { checks as metricsFlowsThresholds } from './metrics-flows-thresholds.js';
import { checks as metricsFlowsEdits } from './metrics-flows-edits.js';
import { checks as metricsOrganizationThreshold } from './metrics-organization-threshold.js';
import { checks as metricsSqlSchema } from './metrics-sql-schema.js';
import { checks as metricsTest } from './metrics-test.js';
import { checks as personasSoundsTags } from './personas-sounds-tags.js';
import { checks as personasSoundsUpload } from './personas-sounds-upload.js';
import { checks as testSetsAgentsRecords } from './test-sets-agents-records.js';
import { checks as testSetsAgentsEdits } from './test-sets-agents-edits.js';
import { checks as testSetsGridRows } from './test-sets-grid-rows.js';
// issue 30
import { checks as newerClient } from './newer-client.js';

export const RULE_CHECKS: readonly Check[] = [...alerts, ...webhooksBaselines, ...personasAudio, ...records, ...runsCancel, ...personasSoundsTags, ...personasSoundsUpload, ...metricsFlowsThresholds, ...metricsFlowsEdits, ...metricsOrganizationThreshold, ...metricsSqlSchema, ...metricsTest, ...testSetsAgentsRecords, ...testSetsAgentsEdits, ...testSetsGridRows, ...newerClient];
