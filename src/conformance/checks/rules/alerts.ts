// Rule-specific checks (alerts): selected by the rule names the spec gives operations (x-rules) and event handlers.
import type { Check } from '../context.js';

export const checks: Check[] = [];
