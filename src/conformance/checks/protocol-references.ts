// x-references: a body field that names another resource by id (or a list of such ids) must name one the caller
// can see; a well-formed id that names nothing is 404 on the field (`field[0]` for an item of a list), checked
// before anything else of the operation happens.
import { expectError, send } from '../http.js';
import { fail } from '../result.js';
import type { Route, SuiteData } from '../suite-data.js';
import { fieldRules } from '../world.js';
import type { Check } from './context.js';
import { prepare, validBody } from './happy.js';
import { unusedIdCandidates } from './isolation.js';

/** The body fields of a route that declare the resource they name. */
function referencingFields(suite: SuiteData, route: Route): string[] {
  if (route.body === null || route.auth.length === 0) return [];
  return Object.entries(fieldRules(suite, route))
    .filter(([, rule]) => rule.references !== undefined)
    .map(([field]) => field)
    .sort();
}

export const unknownReference: Check = {
  name: 'not found: a body field naming a record (x-references) that does not exist is 404 on the field',
  needs: 'a body field naming another record (x-references)',
  applies: (route, suite) => referencingFields(suite, route).length > 0,
  async run(ctx) {
    const spec = await prepare(ctx);
    for (const field of referencingFields(ctx.suite, ctx.route)) {
      const body = (await validBody(ctx.world, ctx.route)) ?? {};
      const unused = unusedIdCandidates(ctx);
      const list = Array.isArray(body[field]) || unused.some((id) => ctx.route.validators.body?.validate({ ...body, [field]: [id] }).ok === true);
      const value = unused
        .map((id) => (list ? [id] : id))
        .find((candidate) => ctx.route.validators.body?.validate({ ...body, [field]: candidate }).ok !== false);
      if (value === undefined) fail(`cannot build a well-formed, unused id for ${field}`);
      const answer = await send(ctx.target, ctx.route, { ...spec, body: { ...body, [field]: value } });
      expectError(answer, 404, 'NOT_FOUND', list ? `${field}[0]` : field, `${field} naming nothing`);
    }
  },
};

export const checks: readonly Check[] = [unknownReference];
