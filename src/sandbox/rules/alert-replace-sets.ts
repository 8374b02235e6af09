// alert-replace-sets: given `conditions` or `channels` replace the whole stored set (new ulids for every
// item, old items gone) inside the update's transaction; an empty conditions list is 400 on `conditions`.
// On create, every item gets its ulid the same way.
import { invalid } from '../errors.js';
import { ulid } from '../ids.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import type { Json } from '../storage/store.js';

const SETS = ['conditions', 'channels'] as const;

export const alertReplaceSets: Rule = {
  before(ctx) {
    if (Array.isArray(ctx.body.conditions) && ctx.body.conditions.length === 0) throw invalid('conditions', 'must contain at least one condition');
  },
  write(ctx, next) {
    for (const set of SETS) {
      const given = ctx.body[set];
      if (!Array.isArray(given)) continue;
      setOwn(
        next,
        set,
        (given as Json[]).map((item) => {
          const copy: Json = {};
          for (const [k, v] of Object.entries(item)) if (k !== 'ulid') setOwn(copy, k, v);
          return { ulid: ulid(), ...copy };
        }),
      );
    }
    for (const field of ['agent_ids', 'required_tags', 'scheduled_run_ids', 'channels']) if (next[field] === undefined) setOwn(next, field, []);
    if (next.trigger_count === undefined) setOwn(next, 'trigger_count', 0);
  },
};
