// One check's outcome. A failure says what was expected and what came back; a skip says why it could not run; a
// check that found, once it looked, that the operation lacks what it checks is not run (issue 27), with the reason.

export type Outcome = 'pass' | 'fail' | 'skip' | 'not-run';

export interface CheckResult {
  operation: string;
  check: string;
  outcome: Outcome;
  /** For a failure: expected vs actual; for a skip or a check not run: the reason. */
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
/** The operation lacks what the check needs (a spec's precondition, not the target's): the check is not run. */
export class CheckNotRun extends Error {}

export function fail(message: string): never {
  throw new CheckFailure(message);
}

/** The check could not complete for want of something of the target's (the control plane, another key). */
export function skip(reason: string): never {
  throw new CheckSkip(reason);
}

/**
 * The operation, as the spec describes it, lacks what the check needs (no second constraint to violate, no get
 * operation to read back with, an answer that does not carry the record): the check is not run, with the reason,
 * and is not counted as a skip. Known only once the check looks; checks that apply to no operation at all are left
 * out before the run (not-run.ts).
 */
export function lacks(reason: string): never {
  throw new CheckNotRun(reason);
}
