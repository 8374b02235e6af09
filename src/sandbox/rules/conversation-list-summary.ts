// conversation-list-summary: the list of uploaded conversations answers each without its transcript, which only
// the single get returns (facts 2.2: "transcript (single GET only)"). The records are this request's own copies
// (read, never written back), so dropping the field changes the answer only.
import type { Rule } from '../engine/hooks.js';

export const conversationListSummary: Rule = {
  after(_ctx, result) {
    // Named on the list only, whose answer always has its records.
    for (const record of result.records!) delete record.data.transcript;
  },
};
