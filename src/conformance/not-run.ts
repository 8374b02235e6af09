// The checks a run leaves out because the spec lacks what they check (issue 27): a check that applies to no
// operation of the suite is "not run", with its reason, in the report; it is not a skip (a skip is a check that
// applied and could not complete). Whether a check applies reads only the route table and schemas, so this list is
// known before anything is sent.
import { CHECKS, type Check } from './checks/index.js';
import { RULE_CHECKS } from './checks/rules/index.js';
import type { NotRun } from './result.js';
import type { SuiteData } from './suite-data.js';

/** The reason of a check without `needs`: a rule check's precondition is its rule. */
const RULE_REASON = 'no operation names the rule it checks (x-rules, x-handlers)';

/** Checks (of `checks`, default every one; with `check`, those whose name contains it) that apply to none of `routes`. */
export function notRunChecks(suite: SuiteData, options: { routes?: SuiteData['routes']; checks?: readonly Check[]; check?: string } = {}): NotRun[] {
  const routes = options.routes ?? suite.routes;
  const out: NotRun[] = [];
  for (const check of options.checks ?? CHECKS) {
    if (options.check !== undefined && !check.name.includes(options.check)) continue;
    if (routes.some((route) => check.applies(route, suite))) continue;
    const reason = check.needs !== undefined ? `needs ${check.needs}; the spec has none` : RULE_CHECKS.includes(check) ? RULE_REASON : 'it applies to no operation of the spec';
    out.push({ check: check.name, reason });
  }
  return out;
}
