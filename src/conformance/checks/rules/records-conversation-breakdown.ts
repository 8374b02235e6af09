// conversation-metric-breakdown (facts-shapes 2.5 UC2, E9; docs/sandbox.md "Conversations", the sandbox's
// choices): with view=metric_breakdown the list answers one metric's results grouped by a metadata key, avg the
// mean and success the share of successful values per group; metric_id and group_by_metadata are required with
// the view; without it group_by_metadata and aggregation change nothing (the answer is a page). The breakdown
// counts the conversations every filter of the list keeps, all of them (not one page).
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Check } from '../context.js';
import { operationWithRule, show, succeed, type Json } from './records-support.js';

const RULE = 'conversation-metric-breakdown';

export const breakdown: Check = {
  name: `rule ${RULE}: view=metric_breakdown groups the metric's values by a metadata key (avg, success); metric_id and group_by_metadata are required with it`,
  applies: operationWithRule('conversation', 'list', RULE),
  async run(ctx) {
    const metric = (await ctx.world.create('metric')).id;
    const key = `region_${ctx.world.nextSeed()}`;
    for (const [region, value] of [['eu', 1], ['eu', 0], ['us', 0.5]] as const) {
      await ctx.world.loadRecord('conversation', { metadata: { [key]: region }, metric_ids: [metric], metric_values: [{ metric_id: metric, value }] });
    }
    await ctx.world.loadRecord('conversation', { metadata: {}, metric_ids: [metric], metric_values: [{ metric_id: metric, value: 1 }] });
    const query = { view: 'metric_breakdown', metric_id: metric, group_by_metadata: key };
    const avg = (await succeed(ctx, ctx.route, { query }, 'the breakdown with the default aggregation')).body as Record<string, unknown>;
    const wantAvg = { view: 'metric_breakdown', metric_id: metric, group_by_metadata: key, aggregation: 'avg', breakdown: [{ metadata_value: 'eu', value: 0.5, count: 2 }, { metadata_value: 'us', value: 0.5, count: 1 }], total_count: 3 };
    if (show(avg) !== show(wantAvg)) fail(`the avg breakdown is ${show(avg)}, expected ${show(wantAvg)}`);
    const success = (await succeed(ctx, ctx.route, { query: { ...query, aggregation: 'success' } }, 'the success breakdown')).body as { breakdown: unknown };
    const wantSuccess = [{ metadata_value: 'eu', value: 0.5, count: 2 }, { metadata_value: 'us', value: 1, count: 1 }];
    if (show(success.breakdown) !== show(wantSuccess)) fail(`the success breakdown is ${show(success.breakdown)}, expected ${show(wantSuccess)}`);
    expectError(await send(ctx.target, ctx.route, { query: { view: 'metric_breakdown', group_by_metadata: key } }), 400, 'INVALID_ARGUMENT', 'metric_id', 'the view without metric_id');
    expectError(await send(ctx.target, ctx.route, { query: { view: 'metric_breakdown', metric_id: metric } }), 400, 'INVALID_ARGUMENT', 'group_by_metadata', 'the view without group_by_metadata');
    const plain = (await succeed(ctx, ctx.route, { query: { aggregation: 'avg', group_by_metadata: key, page_size: '1' } }, 'aggregation without the view')).body as Record<string, unknown>;
    if ('breakdown' in plain) fail(`without view the list answered a breakdown: ${show(plain)}`);
  },
};

export const breakdownValues: Check = {
  name: `rule ${RULE}: success counts true, numbers above 0 and yes/true/pass/passed/success in any case; avg ignores values that are not numbers; a group without values has value null; a non-text metadata value groups as JSON`,
  applies: operationWithRule('conversation', 'list', RULE),
  async run(ctx) {
    const metric = (await ctx.world.create('metric')).id;
    const key = `tier_${ctx.world.nextSeed()}`;
    const rows: [unknown, unknown][] = [
      ['words', 'Pass'], ['words', 'SUCCESS'], ['words', 'no'], ['words', 'Passed'],
      ['flags', true], ['flags', false], ['flags', 2], ['flags', -1],
      [7, 0.25], [7, 'text'],
      ['empty', null],
    ];
    for (const [group, value] of rows) {
      await ctx.world.loadRecord('conversation', { metadata: { [key]: group }, metric_ids: [metric], metric_values: [{ metric_id: metric, value }] });
    }
    const query = { view: 'metric_breakdown', metric_id: metric, group_by_metadata: key };
    const success = (await succeed(ctx, ctx.route, { query: { ...query, aggregation: 'success' } }, 'the success breakdown')).body as { breakdown: unknown; total_count: unknown };
    const wantSuccess = [{ metadata_value: '7', value: 0.5, count: 2 }, { metadata_value: 'empty', value: null, count: 1 }, { metadata_value: 'flags', value: 0.5, count: 4 }, { metadata_value: 'words', value: 0.75, count: 4 }];
    if (show(success.breakdown) !== show(wantSuccess) || success.total_count !== 11) fail(`the success breakdown is ${show(success)}, expected ${show(wantSuccess)} and total_count 11`);
    const avg = (await succeed(ctx, ctx.route, { query: { ...query, aggregation: 'avg' } }, 'the avg breakdown')).body as { breakdown: unknown };
    const wantAvg = [{ metadata_value: '7', value: 0.25, count: 2 }, { metadata_value: 'empty', value: null, count: 1 }, { metadata_value: 'flags', value: 0.5, count: 4 }, { metadata_value: 'words', value: null, count: 4 }];
    if (show(avg.breakdown) !== show(wantAvg)) fail(`the avg breakdown is ${show(avg.breakdown)}, expected ${show(wantAvg)}`);
  },
};

export const breakdownScope: Check = {
  name: `rule ${RULE}: the breakdown counts every conversation the list's filters keep (metric_id, filter, start_date), not one page; yes and true (word or boolean) count as successes; a conversation of the group without a value of the metric counts but adds no value; one without the key (no metadata, or a name such as __proto__ every object inherits) is in no group`,
  applies: operationWithRule('conversation', 'list', RULE),
  async run(ctx) {
    const metric = (await ctx.world.create('metric')).id;
    const other = (await ctx.world.create('metric')).id;
    const key = `site_${ctx.world.nextSeed()}`;
    const at = '2025-03-10T12:00:00.000Z';
    const load = async (group: string, values: Json[], extra: Json = {}): Promise<string> =>
      (await ctx.world.loadRecord('conversation', { metadata: { [key]: group }, create_time: at, metric_ids: [metric], metric_values: values, ...extra })).id;
    await load('a', [{ metric_id: metric, value: 1 }]);
    // Evaluated on the metric, without a value for it (yet).
    await load('a', []);
    // Not evaluated on the metric: the metric_id filter leaves it out.
    await load('a', [{ metric_id: other, value: 1 }], { metric_ids: [other] });
    await load('b', [{ metric_id: metric, value: 'yes' }]);
    const filtered = await load('b', [{ metric_id: metric, value: 'TRUE' }]);
    await load('c', [{ metric_id: metric, value: 0.5 }], { create_time: '2024-01-01T00:00:00.000Z' });
    await load('d', [{ metric_id: metric, value: true }]);
    // Without metadata (a submit may omit it): in no group.
    await load('a', [{ metric_id: metric, value: 1 }], { metadata: undefined });
    const query = { view: 'metric_breakdown', metric_id: metric, group_by_metadata: key, page_size: '1' };
    const read = async (extra: Record<string, string>, what: string): Promise<Json> => (await succeed(ctx, ctx.route, { query: { ...query, ...extra } }, what)).body as Json;
    const brief = (body: Json): Json => ({ breakdown: body.breakdown, total_count: body.total_count });
    const cases: [Record<string, string>, Json][] = [
      [{ aggregation: 'success' }, { breakdown: [{ metadata_value: 'a', value: 1, count: 2 }, { metadata_value: 'b', value: 1, count: 2 }, { metadata_value: 'c', value: 1, count: 1 }, { metadata_value: 'd', value: 1, count: 1 }], total_count: 6 }],
      [{ aggregation: 'avg' }, { breakdown: [{ metadata_value: 'a', value: 1, count: 2 }, { metadata_value: 'b', value: null, count: 2 }, { metadata_value: 'c', value: 0.5, count: 1 }, { metadata_value: 'd', value: null, count: 1 }], total_count: 6 }],
      [{ aggregation: 'success', start_date: '2025-01-01T00:00:00Z', filter: `NOT conversation_id = "${filtered}"` }, { breakdown: [{ metadata_value: 'a', value: 1, count: 2 }, { metadata_value: 'b', value: 1, count: 1 }, { metadata_value: 'd', value: 1, count: 1 }], total_count: 4 }],
    ];
    // A key no conversation's metadata holds, though every object inherits it: no group.
    cases.push([{ group_by_metadata: '__proto__' }, { breakdown: [], total_count: 0 }]);
    for (const [extra, want] of cases) {
      const got = brief(await read(extra, `the breakdown with ${show(extra)} and page_size 1`));
      if (show(got) !== show(want)) fail(`the breakdown with ${show(extra)} and page_size 1 is ${show(got)}, expected ${show(want)}`);
    }
  },
};

export const checks: Check[] = [breakdown, breakdownValues, breakdownScope];
