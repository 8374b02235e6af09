// The conformance suite's public surface (the package @evalplatform/conformance is built from this module, and its
// declarations are what this module exposes): run the suite, read the results, write the reports.
export { runConformance, conformanceNotRun, ConformanceOptionsError, type ConformanceOptions } from './run-conformance.js';
export { junit, summary, table } from './report.js';
export type { CheckResult, NotRun, Outcome } from './result.js';
