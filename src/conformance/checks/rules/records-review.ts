// The review disagreement state (review-disagreement): per requested project with the
// require_disagreement_notes rule, the simulations with unresolved reviewer disagreement (seed "Review
// disagreement state" and "Review projects"; docs/sandbox.md "Review disagreement").
import { expectSuccess, send } from '../../http.js';
import { fail, lacks } from '../../result.js';
import { deref } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { controlOf, enumOf, itemsOf, loadFixtures, operationWithRule, propertySchema, show, succeed, unusedLike, type FixtureEntry, type Json } from './records-support.js';

const NOTES_RULE = 'require_disagreement_notes';

interface Scene {
  /** Projects with the rule: `strict` has two unresolved simulations (three annotations), `other` one. */
  strict: string;
  other: string;
  /** Ids the answer must leave out: a project without the rule, a deleted one, one that does not exist. */
  ignored: string[];
  expected: Record<string, { simulations: string[]; annotations: string[] }>;
}

function simulationId(seed: number, n: number): string {
  return `sim${seed}x${n}`.padEnd(22, 'S');
}

/** Loads the projects and annotations the check asks about. */
async function loadScene(ctx: CheckContext): Promise<Scene> {
  const control = controlOf(ctx, 'load review projects and annotations');
  const rules = enumOf(ctx, deref(propertySchema(ctx, 'review-project', 'project_rules'), ctx.suite.defs).items).map(String);
  if (!rules.includes(NOTES_RULE)) lacks(`the spec's review project rules have no ${NOTES_RULE}`);
  const otherRule = rules.find((r) => r !== NOTES_RULE);
  const project = (ruleSet: string[], deleted = false): FixtureEntry => ({ kind: 'review-project', deleted, data: { display_name: `Review ${ctx.world.nextSeed()}`, project_rules: ruleSet } });
  const [strict, other, lenient, removed] = (await loadFixtures(control, [
    project([NOTES_RULE]),
    project(otherRule ? [otherRule, NOTES_RULE] : [NOTES_RULE]),
    project(otherRule ? [otherRule] : []),
    project([NOTES_RULE], true),
  ])) as [string, string, string, string];
  const seed = ctx.world.nextSeed();
  const sim = (n: number): string => simulationId(seed, n);
  const annotation = (projectId: string, simulation: string, disagreement: boolean, resolved?: boolean): FixtureEntry => ({
    kind: 'annotation',
    data: { project_id: projectId, simulation_id: simulation, disagreement, ...(resolved === undefined ? {} : { resolved }) },
  });
  const ids = await loadFixtures(control, [
      annotation(strict, sim(1), true, false),
      annotation(strict, sim(1), true),
      annotation(strict, sim(2), true, true),
      annotation(strict, sim(3), false),
      annotation(strict, sim(4), true, false),
      annotation(other, sim(5), true, false),
      annotation(lenient, sim(6), true, false),
    annotation(removed, sim(7), true, false),
  ]);
  return {
    strict,
    other,
    ignored: [lenient, removed, unusedLike(strict)],
    expected: {
      [strict]: { simulations: [sim(1), sim(4)], annotations: [ids[0]!, ids[1]!, ids[4]!] },
      [other]: { simulations: [sim(5)], annotations: [ids[5]!] },
    },
  };
}

async function ask(ctx: CheckContext, scene: Scene, extra: Json): Promise<Map<string, Json>> {
  const body = { project_ids: [scene.strict, ...scene.ignored, scene.other], ...extra };
  const items = itemsOf(ctx.route, (await succeed(ctx, ctx.route, { body }, `the disagreement state with ${show(extra)}`)).body);
  return new Map(items.map((p) => [String(p.project_id), p]));
}

function sorted(value: unknown): string {
  return JSON.stringify(Array.isArray(value) ? [...value].map(String).sort() : value);
}

function expectCounts(scene: Scene, projects: Map<string, Json>, what: string): void {
  // Seed: only projects with the require_disagreement_notes rule are reported; docs/sandbox.md (the sandbox's
  // choice): ids naming no project of the organization are left out.
  const reported = [...projects.keys()].sort();
  if (sorted(reported) !== sorted(Object.keys(scene.expected))) fail(`${what}: expected the projects ${show(Object.keys(scene.expected))}, got ${show(reported)}`);
  for (const [id, want] of Object.entries(scene.expected)) {
    // Seed: unresolved_simulation_count counts simulations; docs/sandbox.md: disagreement true and resolved not true.
    const count = projects.get(id)!.unresolved_simulation_count;
    if (count !== want.simulations.length) fail(`${what}: project ${id} has unresolved_simulation_count ${show(count)}, expected ${want.simulations.length}`);
  }
}

function expectIds(scene: Scene, projects: Map<string, Json>, listed: string[], what: string): void {
  for (const [id, want] of Object.entries(scene.expected)) {
    const entry = projects.get(id)!;
    if (!listed.includes(id)) {
      if (entry.unresolved_simulation_ids !== undefined || entry.unresolved_annotation_ids !== undefined) fail(`${what}: project ${id} lists ids it should not (${show(entry)})`);
      continue;
    }
    if (sorted(entry.unresolved_simulation_ids) !== sorted(want.simulations)) fail(`${what}: project ${id} lists simulations ${show(entry.unresolved_simulation_ids)}, expected ${show(want.simulations)}`);
    if (sorted(entry.unresolved_annotation_ids) !== sorted(want.annotations)) fail(`${what}: project ${id} lists annotations ${show(entry.unresolved_annotation_ids)}, expected ${show(want.annotations)}`);
  }
}

export const disagreementState: Check = {
  name: 'rule review-disagreement: counts simulations with unresolved disagreement per project with require_disagreement_notes; ids only when asked, for the selected project',
  applies: operationWithRule('review-project', 'custom', 'review-disagreement'),
  async run(ctx) {
    const scene = await loadScene(ctx);
    const both = [scene.strict, scene.other];
    // Seed (Review projects): include_unresolved_ids false or omitted returns counts only.
    for (const extra of [{}, { include_unresolved_ids: false, selected_project_id: scene.other }]) {
      const projects = await ask(ctx, scene, extra);
      expectCounts(scene, projects, `with ${show(extra)}`);
      expectIds(scene, projects, [], `with ${show(extra)}`);
    }
    const all = await ask(ctx, scene, { include_unresolved_ids: true });
    expectCounts(scene, all, 'with include_unresolved_ids');
    expectIds(scene, all, both, 'with include_unresolved_ids');
    // Seed: the project-restricting field limits the id lists to one project (selected_project_id in the spec).
    const one = await ask(ctx, scene, { include_unresolved_ids: true, selected_project_id: scene.other });
    expectCounts(scene, one, 'with selected_project_id');
    expectIds(scene, one, [scene.other], 'with selected_project_id');
    // Seed: resources are scoped to an organization; another organization's projects are left out.
    const otherKey = ctx.target.otherApiKey ?? (await controlOf(ctx, 'create a second organization').createOtherOrganizationKey());
    const foreign = await send(ctx.target, ctx.route, { key: otherKey, body: { project_ids: [scene.strict, scene.other], include_unresolved_ids: true } });
    expectSuccess(foreign, ctx.route, "another organization asking about this organization's projects");
    if (itemsOf(ctx.route, foreign.body).length !== 0) fail(`another organization sees this organization's projects: ${foreign.text.slice(0, 200)}`);
  },
};

export const checks: Check[] = [disagreementState];
