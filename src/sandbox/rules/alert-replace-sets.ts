// alert-replace-sets: given `conditions` or `channels` replace the whole stored set (new ulids for every
// item, old items gone) inside the update's transaction. On create, every item gets its ulid the same way.
// Also (evaluate-alerts relies on these): a condition without match_mode gets `exact` (the input schema's
// default); a new alert starts with trigger_count 0 and last_triggered_at null.
// Also: a new alert is enabled (the create body has no `enabled`); `attribution` records who created and last
// changed the alert and when (the sandbox's one user); a null agent_ids, required_tags or scheduled_run_ids in
// an update (x-null: rule) removes the restriction, stored as an empty list.
// Left to other layers: an empty conditions list (400 on `conditions`) is refused by the validators
// (`minItems: 1` on create and update); the create defaults of agent_ids, required_tags, scheduled_run_ids
// and channels are the engine's; a channel's config.auth_token (writeOnly, "never returned") stays in the
// stored config, where the answer shaping drops writeOnly paths and evaluate-alerts reads it for the
// X-Webhook-Token header.
import { ulid } from '../ids.js';
import { bodyOf } from '../engine/request-parts.js';
import type { Rule } from '../engine/hooks.js';
import { SANDBOX_USER, setOwn } from '../engine/records.js';
import { isJsonObject, type Json } from '../storage/store.js';

const SETS = ['conditions', 'channels'] as const;
const RESTRICTIONS = ['agent_ids', 'required_tags', 'scheduled_run_ids'] as const;

export const alertReplaceSets: Rule = {
  write(ctx, next, previous) {
    const body = bodyOf(ctx, 'createAlert', 'updateAlert');
    for (const set of SETS) {
      const given = body[set];
      if (!Array.isArray(given)) continue;
      setOwn(
        next,
        set,
        given.map((item) => {
          const copy: Json = { ulid: ulid() };
          for (const [k, v] of Object.entries(item)) if (k !== 'ulid') setOwn(copy, k, v);
          if (set === 'conditions' && copy.match_mode === undefined) setOwn(copy, 'match_mode', 'exact');
          return copy;
        }),
      );
    }
    for (const field of RESTRICTIONS) if (body[field] === null) setOwn(next, field, []);
    if (previous === undefined) {
      setOwn(next, 'trigger_count', 0);
      setOwn(next, 'last_triggered_at', null);
      setOwn(next, 'enabled', true);
      setOwn(next, 'attribution', { created_at: ctx.now, created_by: SANDBOX_USER, updated_at: ctx.now, updated_by: SANDBOX_USER });
    } else {
      const was: Json = isJsonObject(previous.attribution) ? previous.attribution : {};
      setOwn(next, 'attribution', { created_at: was.created_at ?? null, created_by: was.created_by ?? null, updated_at: ctx.now, updated_by: SANDBOX_USER });
    }
  },
};
