// Rule-specific checks (alerts): selected by the rule names the spec gives operations (x-rules) and event handlers.
// evaluate-alerts (handler of run.completed) is checked through the control plane: alerts created through the
// API, runs completed with chosen values, times and scope, and the notifications each completion recorded.
import type { Check } from '../context.js';
import { checks as aggregate } from './alerts-aggregate.js';
import { checks as baseline } from './alerts-baseline.js';
import { checks as baselineOptions } from './alerts-baseline-options.js';
import { checks as compare } from './alerts-compare.js';
import { checks as events } from './alerts-events.js';
import { checks as eventsMore } from './alerts-events-more.js';
import { checks as eventContents } from './alerts-events-contents.js';
import { checks as testEvaluate } from './alerts-test-evaluate.js';
import { checks as enabled } from './alerts-enabled.js';
import { checks as attribution } from './alerts-sets-attribution.js';
import { checks as reasons } from './alerts-reasons.js';
import { checks as notify } from './alerts-notify.js';
import { checks as scope } from './alerts-scope.js';
import { checks as sets } from './alerts-sets.js';
import { checks as storedRuns } from './alerts-stored-runs.js';
import { checks as webhook } from './alerts-webhook.js';

export const checks: Check[] = [...compare, ...aggregate, ...baseline, ...baselineOptions, ...scope, ...notify, ...sets, ...storedRuns, ...webhook, ...events, ...eventsMore, ...eventContents, ...testEvaluate, ...enabled, ...attribution, ...reasons];
