// Rule-specific checks (webhooks-baselines): selected by the rule names the spec gives operations (x-rules) and event handlers.
// What each rule computes is checked in its own part: webhook-url, deliver-webhooks (deliveries), update-baselines
// (ewma), baseline-sigma-bands (bands) and baseline-history (history).
import type { Check } from '../context.js';
import { sigmaBandChecks } from './webhooks-baselines-bands.js';
import { deliveryChecks } from './webhooks-baselines-deliveries.js';
import { ewmaChecks } from './webhooks-baselines-ewma.js';
import { historyChecks } from './webhooks-baselines-history.js';
import { webhookUrlChecks } from './webhooks-baselines-webhook-url.js';

export const checks: Check[] = [...webhookUrlChecks, ...deliveryChecks, ...ewmaChecks, ...sigmaBandChecks, ...historyChecks];
