// The createSandbox options a pool hands on to each of its workers (JSON values: they cross IPC). Its own module, so
// the pool's public declarations reach it without reaching the IPC messages (which name node:http types).
import type { RunExecutionOptions } from '../runs/execution-options.js';
import type { JudgeEndpointOptions } from '../runs/metrics/judge-endpoint.js';

export interface WorkerEngineOptions {
  /** Faults on demand from the start (issue 29), as `--faults` gives them. */
  faults?: unknown;
  /** How launched runs are executed (pace, agent call limits). */
  runs?: RunExecutionOptions;
  /** The judge endpoint of judged metrics (`--judge-url`), off when absent. */
  judge?: JudgeEndpointOptions;
}
