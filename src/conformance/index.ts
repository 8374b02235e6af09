// The conformance suite's public surface (the package @evalplatform/conformance is built from this module).
export { runConformance, conformanceTarget, checkTimeout, ConformanceOptionsError, type ConformanceOptions } from './run-conformance.js';
export { runSuite, type RunOptions } from './run.js';
export { httpTarget, type Target, type ControlAccess, type WebhookReceiver, type ReceivedCall } from './target.js';
export { junit, summary, table } from './report.js';
export type { CheckResult, Outcome } from './result.js';
