// One check's outcome. A failure says what was expected and what came back; a skip says why it could not run.

export type Outcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  operation: string;
  check: string;
  outcome: Outcome;
  /** For a failure: expected vs actual; for a skip: the reason. */
  detail?: string;
  /** The operation's rule modules (x-rules): a failure points at them. */
  rules: readonly string[];
  ms: number;
}

/** A check the run left out because no operation of the spec has what it checks (not-run.ts): not a skip. */
export interface NotRun {
  check: string;
  /** Why: what the check needs that the spec lacks. */
  reason: string;
}

export class CheckFailure extends Error {}
export class CheckSkip extends Error {}

export function fail(message: string): never {
  throw new CheckFailure(message);
}

export function skip(reason: string): never {
  throw new CheckSkip(reason);
}
