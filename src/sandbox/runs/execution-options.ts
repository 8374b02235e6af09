// The executor's knobs (createSandbox `runs`, CLI flags): pace, limits of each call to an agent, concurrency and the
// claims on a shared store. One definition with the defaults and the caps documented in docs/sandbox.md.

export interface RunExecutionOptions {
  /**
   * Milliseconds of each paced step: a launched run waits one before it is queued, one before it starts, and the
   * persona one before each of its turns. Default 50: a run of a few test cases completes in well under two
   * seconds against an agent that answers at once. 0 runs as fast as the agent answers.
   */
  paceMs?: number;
  /** Deadline of each HTTP call to an agent (default 10 000 ms). */
  agentTimeoutMs?: number;
  /** Largest agent answer read (default 1 MiB); a larger one fails that conversation. */
  maxAgentResponseBytes?: number;
  /** Conversations at once when the launch sets no options.concurrency (default 5). */
  defaultConcurrency?: number;
  /** Upper bound on options.concurrency (default 20). */
  maxConcurrency?: number;
  /** How long a claim on a run lasts without renewal (default 10 000 ms); another instance resumes the run after. */
  leaseMs?: number;
  /** How often the instance looks for runs nobody executes (default 500 ms). */
  sweepMs?: number;
}

export type ResolvedExecutionOptions = Required<RunExecutionOptions>;

export function resolveExecutionOptions(options: RunExecutionOptions = {}): ResolvedExecutionOptions {
  const pick = (value: number | undefined, fallback: number, min: number): number => (typeof value === 'number' && Number.isFinite(value) ? Math.max(min, value) : fallback);
  return {
    paceMs: pick(options.paceMs, 50, 0),
    agentTimeoutMs: pick(options.agentTimeoutMs, 10_000, 1),
    maxAgentResponseBytes: pick(options.maxAgentResponseBytes, 1024 * 1024, 1),
    defaultConcurrency: pick(options.defaultConcurrency, 5, 1),
    maxConcurrency: pick(options.maxConcurrency, 20, 1),
    leaseMs: pick(options.leaseMs, 10_000, 100),
    sweepMs: pick(options.sweepMs, 500, 10),
  };
}
