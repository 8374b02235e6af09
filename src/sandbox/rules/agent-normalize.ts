// agent-normalize: VOICE (seen in a create request) is stored and answered as MODEL_TYPE_VOICE; an agent
// created without customer_agent_id (optional on input, always present in responses) gets its own id.
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';

const ALIASES: Record<string, string> = { VOICE: 'MODEL_TYPE_VOICE' };

export const agentNormalize: Rule = {
  write(_ctx, next, previous) {
    const value = next.model_type;
    if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(ALIASES, value)) setOwn(next, 'model_type', ALIASES[value]);
    if (previous === undefined && next.customer_agent_id === undefined) setOwn(next, 'customer_agent_id', next.id);
  },
};
