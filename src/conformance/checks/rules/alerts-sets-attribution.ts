// alert-replace-sets beyond the sets (docs/sandbox.md "Alerts, issue 15 decisions"): `attribution` names who
// created the alert and when (the caller, at the create), and who last changed it and when (every update), the
// creation kept; a null agent_ids / required_tags / scheduled_run_ids in an update removes that restriction
// (stored as []), and the alert then evaluates runs it did not before.
import { expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import { recordOf } from '../../world.js';
import type { Check } from '../context.js';
import { AlertLab, alertFixture, condition, idOf, type Json, notesOf, onReplaceSets } from './alerts-lab.js';
import { show } from './records-support.js';

const SLACK_MS = 5 * 60_000;
const STORED = { created_at: '2001-02-03T04:05:06.000Z', created_by: 'stored-author@example.com', updated_at: '2001-02-03T04:05:06.000Z', updated_by: 'stored-editor@example.com' };

function within(value: unknown, from: number, to: number): boolean {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return at >= from - SLACK_MS && at <= to + SLACK_MS;
}

export const attribution: Check = {
  name: 'rule alert-replace-sets: attribution names the caller and time of the create, and of every update, which keeps the creation',
  applies: onReplaceSets('update'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    // Who the caller is: the author of a record it creates.
    const metricRecord = (await ctx.world.create('metric')).record;
    const caller = metricRecord.created_by;
    const metric = String(metricRecord.ulid ?? metricRecord.id);
    const problems: string[] = [];
    const startedCreate = Date.now();
    const alert = await lab.alert({ conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] });
    const endedCreate = Date.now();
    const made = (alert.attribution ?? {}) as Json;
    if (!within(made.created_at, startedCreate, endedCreate) || made.updated_at !== made.created_at) problems.push(`on create: created_at ${show(made.created_at)} / updated_at ${show(made.updated_at)}, expected both the time of the create`);
    if (typeof made.created_by !== 'string' || made.created_by === '' || made.updated_by !== made.created_by || (typeof caller === 'string' && made.created_by !== caller)) problems.push(`on create: created_by ${show(made.created_by)} / updated_by ${show(made.updated_by)}, expected the caller ${show(caller)}`);
    // A stored alert with attribution, and one stored before attribution existed (its creation unknown: null).
    const { stored, unattributed } = await lab.stored({ stored: { data: alertFixture(lab, metric, { attribution: STORED }) }, unattributed: { data: alertFixture(lab, metric, {}) } });
    const update = lab.route('update');
    for (const [label, target, creation] of [
      ['the created alert', alert, { created_at: made.created_at, created_by: made.created_by }],
      ['a stored alert', stored!, { created_at: STORED.created_at, created_by: STORED.created_by }],
      ['a stored alert without attribution', unattributed!, { created_at: null, created_by: null }],
    ] as const) {
      const started = Date.now();
      const answer = await send(ctx.target, update, { path: { alert_id: idOf(target) }, body: { name: `conformance renamed ${ctx.world.nextSeed()}` } });
      expectSuccess(answer, update, `renaming ${label}`);
      const ended = Date.now();
      const after = (recordOf(update, answer)?.attribution ?? {}) as Json;
      if (after.created_at !== creation.created_at || after.created_by !== creation.created_by) problems.push(`${label}: the update changed the creation to ${show([after.created_at, after.created_by])}, expected ${show([creation.created_at, creation.created_by])}`);
      if (!within(after.updated_at, started, ended) || (after.created_at !== null && Date.parse(String(after.updated_at)) < Date.parse(String(after.created_at)))) problems.push(`${label}: updated_at ${show(after.updated_at)}, expected the time of the update`);
      if (typeof after.updated_by !== 'string' || after.updated_by === STORED.updated_by || (typeof caller === 'string' && after.updated_by !== caller)) problems.push(`${label}: updated_by ${show(after.updated_by)}, expected the caller ${show(caller)}`);
    }
    await lab.remove([stored!, unattributed!]);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const nullRestrictions: Check = {
  name: 'rule alert-replace-sets: null agent_ids / required_tags / scheduled_run_ids in an update remove the restriction (stored as []); given lists are kept',
  applies: onReplaceSets('update'),
  async run(ctx) {
    const lab = AlertLab.open(ctx);
    const metric = await lab.metric();
    const [agent, otherAgent] = [await lab.agent(), await lab.agent()];
    const scheduled = `${lab.tag}-schedule`;
    const alert = await lab.alert({ agent_ids: [agent], scheduled_run_ids: [scheduled], conditions: [condition(metric, 'SINGLE', 'GT', 0.5)] });
    const update = lab.route('update');
    const problems: string[] = [];
    const patch = async (body: Json): Promise<Json> => {
      const answer = await send(ctx.target, update, { path: { alert_id: idOf(alert) }, body });
      expectSuccess(answer, update, `PATCH ${show(body)}`);
      return recordOf(update, answer)!;
    };
    // A run of another agent, from another scheduled run, with another tag: outside every restriction.
    const outside = { agent_id: otherAgent, scheduled_run_id: `${scheduled}-other`, tags: [`${lab.tag}-other`] };
    const fires = async (label: string, expected: boolean): Promise<void> => {
      const done = await lab.complete({ [metric]: 1 }, outside);
      if ((notesOf(done, alert).length > 0) !== expected) problems.push(`${label}: expected the alert ${expected ? 'to fire' : 'to stay quiet'} for a run outside the original restrictions`);
    };
    // An update that names other fields keeps the lists as they are.
    const renamed = await patch({ name: `conformance restricted ${lab.tag}` });
    const lists = (r: Json): string => show([r.agent_ids, r.required_tags, r.scheduled_run_ids]);
    if (lists(renamed) !== show([[agent], [lab.tag], [scheduled]])) problems.push(`a rename changed the restrictions to ${lists(renamed)}`);
    await fires('restricted', false);
    const steps: [string, Json][] = [
      ['agent_ids', { agent_ids: null }],
      ['required_tags', { required_tags: null }],
      ['scheduled_run_ids', { scheduled_run_ids: null }],
    ];
    for (const [field, body] of steps) {
      const after = await patch(body);
      if (show(after[field]) !== '[]') problems.push(`PATCH ${field} null answered ${show(after[field])}, expected []`);
    }
    await fires('every restriction removed', true);
    await lab.remove([alert]);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const checks: Check[] = [attribution, nullRestrictions];
