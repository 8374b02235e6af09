// review-project-links: what a review project create or update does beyond storing its fields (facts-shapes 2.10
// RP2, RP4; the rest assumed, docs/sandbox.md "Review projects"): an update applies add_linked_simulation_ids
// (linked once) and then remove_linked_simulation_ids to the linked simulations, and removes opted_out_assignees
// from the assignees; a list given whole in the same request (linked_simulation_ids, assignees) wins over its
// edits. None of the three edit lists is stored. blind_labeling_shown_metric_ids must be linked metrics (400 on
// the item). Existence of every linked id is x-references (404 on the item).
import { invalid } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import { stringList } from './review/annotations.js';

export const reviewProjectLinks: Rule = {
  write(ctx, next) {
    const add = stringList(next.add_linked_simulation_ids);
    const remove = new Set(stringList(next.remove_linked_simulation_ids));
    const optedOut = new Set(stringList(next.opted_out_assignees).map((a) => a.toLowerCase()));
    for (const key of ['add_linked_simulation_ids', 'remove_linked_simulation_ids', 'opted_out_assignees']) delete next[key];
    const given = (field: string): boolean => Array.isArray(ctx.body[field]);
    if (!given('linked_simulation_ids')) {
      setOwn(next, 'linked_simulation_ids', [...new Set([...stringList(next.linked_simulation_ids), ...add])].filter((id) => !remove.has(id)));
    }
    // Without opted-out assignees the filter keeps every one.
    if (!given('assignees')) setOwn(next, 'assignees', stringList(next.assignees).filter((a) => !optedOut.has(a.toLowerCase())));
    const metrics = new Set(stringList(next.linked_metric_ids));
    stringList(next.blind_labeling_shown_metric_ids).forEach((id, i) => {
      if (!metrics.has(id)) throw invalid(`blind_labeling_shown_metric_ids[${i}]`, 'must be one of the linked metrics');
    });
  },
};
