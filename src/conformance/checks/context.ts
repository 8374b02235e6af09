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
  /** Applies to this operation (otherwise not listed at all). */
  applies(route: Route, suite: SuiteData): boolean;
  run(ctx: CheckContext): Promise<void>;
}
