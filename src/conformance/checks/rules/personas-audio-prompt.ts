// persona-prompt-null and persona-custom-data: the two persona update fields whose null and value rules the
// seed spells out (Persona):
// - persona_prompt: "null clears only when the resulting silent_mode is true, otherwise the request is
//   rejected"; silent_mode: "null clears the override".
// - custom_persona_data: "Serialized JSON object, max 16383 chars (under 16 KiB), must parse as a JSON
//   object ... Null clears".
import { send } from '../../http.js';
import type { Check, CheckContext } from '../context.js';
import { currentRecord } from '../happy.js';
import { appliesTo, expectField, expectRefused, successRecord } from './personas-audio-shared.js';

const PROMPT = 'persona-prompt-null';
const DATA = 'persona-custom-data';

async function personaWithPrompt(ctx: CheckContext, prompt: string): Promise<Record<string, string>> {
  return (await ctx.world.create('persona', { persona_prompt: prompt })).path;
}

async function update(ctx: CheckContext, path: Record<string, string>, body: Record<string, unknown>, what: string): Promise<Record<string, unknown>> {
  return successRecord(await send(ctx.target, ctx.route, { path, body }), ctx.route, what);
}

const promptNullRefused: Check = {
  name: `rule ${PROMPT}: persona_prompt null is 400 on persona_prompt unless the resulting silent_mode is true (the prompt is kept)`,
  applies: appliesTo(PROMPT, 'update'),
  async run(ctx) {
    const prompt = `Conformance prompt ${ctx.world.nextSeed()}`;
    const path = await personaWithPrompt(ctx, prompt);
    const refusals: [Record<string, unknown>, string][] = [
      [{ persona_prompt: null }, 'persona_prompt null on a persona that is not silent'],
      [{ persona_prompt: null, silent_mode: false }, 'persona_prompt null with silent_mode false'],
      // silent_mode null "clears the override": the resulting silent_mode is not true.
      [{ persona_prompt: null, silent_mode: null }, 'persona_prompt null with silent_mode null'],
    ];
    for (const [body, what] of refusals) await expectRefused(ctx, ctx.route, { path, body }, 'persona_prompt', what);
    await update(ctx, path, { silent_mode: true }, 'making the persona silent');
    await expectRefused(ctx, ctx.route, { path, body: { persona_prompt: null, silent_mode: false } }, 'persona_prompt', 'persona_prompt null while turning silent_mode off');
    expectField(await currentRecord(ctx, 'persona', path), 'persona_prompt', prompt, 'after the refused clears');
  },
};

const promptNullClears: Check = {
  name: `rule ${PROMPT}: persona_prompt null clears the prompt when silent_mode is true (sent or stored)`,
  applies: appliesTo(PROMPT, 'update'),
  async run(ctx) {
    const sentSilent = await personaWithPrompt(ctx, `Conformance prompt ${ctx.world.nextSeed()}`);
    expectField(await update(ctx, sentSilent, { persona_prompt: null, silent_mode: true }, 'persona_prompt null with silent_mode true'), 'persona_prompt', undefined, 'the answer');
    expectField(await currentRecord(ctx, 'persona', sentSilent), 'persona_prompt', undefined, 'the persona after clearing with silent_mode true');
    const storedSilent = await personaWithPrompt(ctx, `Conformance prompt ${ctx.world.nextSeed()}`);
    await update(ctx, storedSilent, { silent_mode: true }, 'making the persona silent');
    const prompt = `Conformance prompt ${ctx.world.nextSeed()}`;
    expectField(await update(ctx, storedSilent, { persona_prompt: prompt }, 'a string prompt on a silent persona'), 'persona_prompt', prompt, 'the answer');
    await update(ctx, storedSilent, { persona_prompt: null }, 'persona_prompt null on a silent persona');
    expectField(await currentRecord(ctx, 'persona', storedSilent), 'persona_prompt', undefined, 'the silent persona after persona_prompt null');
  },
};

/** A string of exactly `length` code points holding a JSON object (astral characters count once). */
function objectOfLength(length: number): string {
  const frame = '{"k":""}';
  return `{"k":"${'\u{1F600}'.repeat(length - frame.length)}"}`;
}

const customDataParses: Check = {
  name: `rule ${DATA}: custom_persona_data must parse as a JSON object (an array, a scalar, null text or unparsable text is 400)`,
  applies: appliesTo(DATA, 'update'),
  async run(ctx) {
    const path = (await ctx.world.create('persona')).path;
    for (const text of ['[1,2]', '"text"', '42', 'true', 'null', '{"unclosed": 1', 'not json']) {
      await expectRefused(ctx, ctx.route, { path, body: { custom_persona_data: text } }, 'custom_persona_data', `custom_persona_data ${JSON.stringify(text)}`);
    }
    expectField(await currentRecord(ctx, 'persona', path), 'custom_persona_data', undefined, 'after the refused values');
  },
};

const customDataStored: Check = {
  // docs/sandbox.md (Personas), the sandbox's reading of "max 16383 chars": "length counts code points".
  name: `rule ${DATA}: a serialized object of up to 16383 characters is stored as sent; null clears it`,
  applies: appliesTo(DATA, 'update'),
  async run(ctx) {
    const path = (await ctx.world.create('persona')).path;
    const small = '{"account_tier": "gold", "n": [1, 2]}';
    expectField(await update(ctx, path, { custom_persona_data: small }, 'a small object'), 'custom_persona_data', small, 'the answer');
    const longest = objectOfLength(16383);
    expectField(await update(ctx, path, { custom_persona_data: longest }, 'an object of 16383 code points'), 'custom_persona_data', longest, 'the answer');
    await update(ctx, path, { custom_persona_data: null }, 'custom_persona_data null');
    expectField(await currentRecord(ctx, 'persona', path), 'custom_persona_data', undefined, 'after custom_persona_data null');
    await expectRefused(ctx, ctx.route, { path, body: { custom_persona_data: objectOfLength(16384) } }, 'custom_persona_data', 'an object of 16384 code points');
  },
};

export const checks: Check[] = [promptNullRefused, promptNullClears, customDataParses, customDataStored];
