// Rule-specific checks (personas-audio): selected by the rule names the spec gives operations (x-rules) and event handlers.
// One part per topic: voices and languages (persona-voice), prompt and custom data (persona-prompt-null,
// persona-custom-data), background sounds and the discovery listings (persona-background-sound,
// persona-discovery), conversation audio (audio-validate, audio-attach) and read-outs (metric values, outputs,
// audio URL), re-run and re-simulate.
import type { Check } from '../context.js';
import { checks as conversations } from './personas-audio-conversations.js';
import { checks as outputs } from './personas-audio-conversations-outputs.js';
import { checks as readouts } from './personas-audio-conversations-readouts.js';
import { checks as simulations } from './personas-audio-simulations.js';
import { checks as prompt } from './personas-audio-prompt.js';
import { checks as sounds } from './personas-audio-sounds.js';
import { checks as voice } from './personas-audio-voice.js';

export const checks: Check[] = [...voice, ...prompt, ...sounds, ...conversations, ...outputs, ...readouts, ...simulations];
