// alert-replace-sets: given `conditions` or `channels` replace the whole stored set (new ulids for every
// item, old items gone) inside the update's transaction; an empty conditions list is 400 on `conditions`.
// On create, every item gets its ulid the same way.
// Also (evaluate-alerts relies on these): a condition without match_mode gets `exact` (the input schema's
// default); a new alert starts with trigger_count 0 and last_triggered_at null; a channel's
// config.auth_token (writeOnly, "never returned") is moved out of the presented config into the alert's
// internal `_channel_tokens` (channel ulid -> token), replaced together with the channels.
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
  write(ctx, next, previous) {
    for (const set of SETS) {
      const given = ctx.body[set];
      if (!Array.isArray(given)) continue;
      const tokens: Json = {};
      setOwn(
        next,
        set,
        (given as Json[]).map((item) => {
          const copy: Json = {};
          for (const [k, v] of Object.entries(item)) if (k !== 'ulid') setOwn(copy, k, v);
          const id = ulid();
          if (set === 'conditions' && copy.match_mode === undefined) setOwn(copy, 'match_mode', 'exact');
          if (set === 'channels' && copy.config !== null && typeof copy.config === 'object' && !Array.isArray(copy.config)) {
            const config: Json = {};
            for (const [k, v] of Object.entries(copy.config as Json)) {
              if (k === 'auth_token') {
                if (typeof v === 'string') setOwn(tokens, id, v);
              } else setOwn(config, k, v);
            }
            setOwn(copy, 'config', config);
          }
          return { ulid: id, ...copy };
        }),
      );
      if (set === 'channels') setOwn(next, '_channel_tokens', tokens);
    }
    for (const field of ['agent_ids', 'required_tags', 'scheduled_run_ids', 'channels']) if (next[field] === undefined) setOwn(next, field, []);
    if (next.trigger_count === undefined) setOwn(next, 'trigger_count', 0);
    if (previous === undefined && next.last_triggered_at === undefined) setOwn(next, 'last_triggered_at', null);
  },
};
