// Rule-specific checks (records): selected by the rule names the spec gives operations (x-rules) and event handlers.
// Agents, metrics, runs, test sets, review disagreement and the spec catalog each have their own part file.
import type { Check } from '../context.js';
import { checks as agents } from './records-agents.js';
import { checks as conversationBreakdown } from './records-conversation-breakdown.js';
import { checks as workspaceSlug } from './records-workspace-slug.js';
import { checks as catalog } from './records-catalog.js';
import { checks as conversations } from './records-conversations.js';
import { checks as metrics } from './records-metrics.js';
import { checks as review } from './records-review.js';
import { checks as reviewStats } from './records-review-stats.js';
import { checks as reviewEdges } from './records-review-edges.js';
import { checks as runs } from './records-runs.js';
import { checks as runResults } from './records-runs-results.js';
import { checks as runTags } from './records-runs-tags.js';
import { checks as testSets } from './records-test-sets.js';

export const checks: Check[] = [...agents, ...workspaceSlug, ...metrics, ...runs, ...runResults, ...runTags, ...testSets, ...review, ...reviewStats, ...reviewEdges, ...catalog, ...conversations, ...conversationBreakdown];
