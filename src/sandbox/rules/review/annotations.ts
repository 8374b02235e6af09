// Review annotations as the review rules read them. The API cannot create annotations (they belong to the
// review-annotations family, outside the seed), so they are control-plane fixtures of kind `annotation`:
// { project_id, simulation_id, metric_id, reviewer (e-mail), label, note, disagreement, resolved, create_time }.
// Only project_id and simulation_id are needed by the disagreement state (seed); the rest is assumed
// (docs/sandbox.md "Review projects").
import type { RequestContext } from '../../engine/context.js';
import { findRecord } from '../../engine/records.js';
import type { StoredRecord } from '../../storage/store.js';

export interface Annotation {
  id: string;
  simulation_id: string;
  metric_id: string | null;
  /** The reviewer, or the annotation's own id when it names none (each such annotation is a reviewer of its own). */
  reviewer: string;
  /** The label as text (numbers and booleans as JSON), null when the annotation holds none. */
  label: string | null;
  disagreement: boolean;
  resolved: boolean;
  create_time: string | null;
}

/** The review project named by the path's project_id (404 on project_id when the caller cannot see it). */
export function projectOf(ctx: RequestContext): StoredRecord {
  return findRecord(ctx, 'review-project', ctx.path.project_id, { field: 'project_id' });
}

function labelOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The project's annotations, in the order they were loaded. */
export function annotationsOf(ctx: RequestContext, projectId: string): Annotation[] {
  return ctx.runtime.store
    .list('annotation', { org: ctx.org })
    .filter((a) => a.org === ctx.org && !a.deleted && a.data.project_id === projectId)
    .map((a) => ({
      id: a.id,
      simulation_id: String(a.data.simulation_id),
      metric_id: typeof a.data.metric_id === 'string' ? a.data.metric_id : null,
      reviewer: typeof a.data.reviewer === 'string' ? a.data.reviewer.toLowerCase() : a.id,
      label: labelOf(a.data.label),
      disagreement: a.data.disagreement === true,
      resolved: a.data.resolved === true,
      create_time: typeof a.data.create_time === 'string' ? a.data.create_time : null,
    }));
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * Agreement on one metric: per simulation (of `simulations`, when given), the last label of each reviewer; two
 * or more reviewers with labels agree when every label is the same, else they disagree.
 */
export function agreementOf(annotations: Annotation[], metricId: string, simulations?: ReadonlySet<string>): { agreements: number; disagreements: number } {
  const bySimulation = new Map<string, Map<string, string>>();
  for (const a of annotations) {
    if (a.metric_id !== metricId || a.label === null || (simulations && !simulations.has(a.simulation_id))) continue;
    const reviewers = bySimulation.get(a.simulation_id) ?? new Map<string, string>();
    reviewers.set(a.reviewer, a.label);
    bySimulation.set(a.simulation_id, reviewers);
  }
  let agreements = 0;
  let disagreements = 0;
  for (const reviewers of bySimulation.values()) {
    if (reviewers.size < 2) continue;
    if (new Set(reviewers.values()).size === 1) agreements++;
    else disagreements++;
  }
  return { agreements, disagreements };
}

export function rate(agreements: number, disagreements: number): number {
  return agreements + disagreements === 0 ? 0 : agreements / (agreements + disagreements);
}
