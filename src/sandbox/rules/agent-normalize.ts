// agent-normalize: VOICE (seen in a create request) is stored and answered as MODEL_TYPE_VOICE; an agent
// without customer_agent_id (optional on input, always present in responses) gets its own id. (An update cannot
// clear customer_agent_id, so only a create, or an agent loaded without one, lacks it.)
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import { writtenData } from '../engine/request-parts.js';

const ALIASES: Record<string, string> = { VOICE: 'MODEL_TYPE_VOICE' };

export const agentNormalize: Rule = {
  write(ctx, next) {
    const value = writtenData(ctx, 'agent', next).model_type;
    if (Object.prototype.hasOwnProperty.call(ALIASES, value)) setOwn(next, 'model_type', ALIASES[value]);
    if (next.customer_agent_id === undefined) setOwn(next, 'customer_agent_id', next.id);
  },
};
