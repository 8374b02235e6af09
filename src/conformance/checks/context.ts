// What every check receives, and the registry type: a check is named, says whether it applies to an
// operation, and runs (throwing CheckFailure / CheckSkip, or returning to pass).
import type { Route, SuiteData } from '../suite-data.js';
import type { Target } from '../target.js';
import type { World } from '../world.js';

export interface CheckContext {
  target: Target;
  suite: SuiteData;
  world: World;
  route: Route;
}

export interface Check {
  name: string;
  /**
   * What an operation must have for the check to apply, in words: a check that applies to no operation of the spec
   * is reported "not run" with this reason (not-run.ts). Rule checks (checks/rules) go without: theirs is the rule.
   */
  needs?: string;
  /** Applies to this operation (otherwise not run on it). */
  applies(route: Route, suite: SuiteData): boolean;
  run(ctx: CheckContext): Promise<void>;
}
