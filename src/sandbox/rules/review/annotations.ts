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
  /**
   * The label criterion by criterion (criteria_view_mode criteria): an object label's keys with their values as
   * text (null values left out); any other label is the one criterion `score`; empty without a label.
   */
  criteria: Map<string, string>;
  /** The reviewer's note, null when blank or absent. */
  note: string | null;
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

function criteriaOf(value: unknown, label: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      const text = labelOf(v);
      if (text !== null) out.set(k, text);
    }
  } else if (label !== null) out.set('score', label);
  return out;
}

/** The project's annotations, in the order they were loaded. */
export function annotationsOf(ctx: RequestContext, projectId: string): Annotation[] {
  return ctx.runtime.store
    .list('annotation', { org: ctx.org })
    .filter((a) => a.org === ctx.org && !a.deleted && a.data.project_id === projectId)
    .map((a) => {
      const label = labelOf(a.data.label);
      return {
        id: a.id,
        simulation_id: String(a.data.simulation_id),
        metric_id: typeof a.data.metric_id === 'string' ? a.data.metric_id : null,
        reviewer: typeof a.data.reviewer === 'string' ? a.data.reviewer.toLowerCase() : a.id,
        label,
        criteria: criteriaOf(a.data.label, label),
        note: typeof a.data.note === 'string' && a.data.note.trim() !== '' ? a.data.note : null,
        disagreement: a.data.disagreement === true,
        resolved: a.data.resolved === true,
        create_time: typeof a.data.create_time === 'string' ? a.data.create_time : null,
      };
    });
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** How reviewers' labels are compared (criteria_view_mode): whole (`score`) or criterion by criterion. */
export type ViewMode = 'score' | 'criteria';

/** The verdict on one simulation for one metric: two or more reviewers alike or not, or one reviewer only. */
export type Verdict = 'agreement' | 'disagreement' | 'unknown';

/** Per simulation (of `simulations`, when given), each reviewer's last labeled annotation of the metric. */
function lastLabels(annotations: Annotation[], metricId: string, simulations?: ReadonlySet<string>): Map<string, Map<string, Annotation>> {
  const bySimulation = new Map<string, Map<string, Annotation>>();
  for (const a of annotations) {
    if (a.metric_id !== metricId || a.label === null || (simulations && !simulations.has(a.simulation_id))) continue;
    const reviewers = bySimulation.get(a.simulation_id) ?? new Map<string, Annotation>();
    reviewers.set(a.reviewer, a);
    bySimulation.set(a.simulation_id, reviewers);
  }
  return bySimulation;
}

/** Per criterion, the values of the reviewers whose label has it. */
function valuesByCriterion(reviewers: Iterable<Annotation>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of reviewers) for (const [criterion, value] of a.criteria) out.set(criterion, [...(out.get(criterion) ?? []), value]);
  return out;
}

function verdictOf(reviewers: Map<string, Annotation>, mode: ViewMode): Verdict {
  if (mode === 'score') {
    if (reviewers.size < 2) return 'unknown';
    return new Set([...reviewers.values()].map((a) => a.label)).size === 1 ? 'agreement' : 'disagreement';
  }
  // Criteria: only criteria two or more reviewers labeled are compared; any of them differing is a disagreement.
  const compared = [...valuesByCriterion(reviewers.values()).values()].filter((values) => values.length >= 2);
  if (compared.length === 0) return 'unknown';
  return compared.every((values) => new Set(values).size === 1) ? 'agreement' : 'disagreement';
}

/** The verdict on each labeled simulation (of `simulations`, when given) for one metric. */
export function verdictsOf(annotations: Annotation[], metricId: string, mode: ViewMode, simulations?: ReadonlySet<string>): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  for (const [simulation, reviewers] of lastLabels(annotations, metricId, simulations)) out.set(simulation, verdictOf(reviewers, mode));
  return out;
}

/**
 * Agreement on one metric: per simulation (of `simulations`, when given), the last label of each reviewer; two
 * or more reviewers agree when their labels are the same (criteria mode: on every criterion two or more of them
 * labeled), else they disagree.
 */
export function agreementOf(annotations: Annotation[], metricId: string, simulations?: ReadonlySet<string>, mode: ViewMode = 'score'): { agreements: number; disagreements: number } {
  let agreements = 0;
  let disagreements = 0;
  for (const verdict of verdictsOf(annotations, metricId, mode, simulations).values()) {
    if (verdict === 'agreement') agreements++;
    else if (verdict === 'disagreement') disagreements++;
  }
  return { agreements, disagreements };
}

/** Per criterion, the simulations two or more reviewers labeled on it alike (agreements) or not (disagreements). */
export function criteriaAgreementOf(annotations: Annotation[], metricId: string, simulations?: ReadonlySet<string>): Map<string, { agreements: number; disagreements: number }> {
  const out = new Map<string, { agreements: number; disagreements: number }>();
  for (const reviewers of lastLabels(annotations, metricId, simulations).values()) {
    for (const [criterion, values] of valuesByCriterion(reviewers.values())) {
      if (values.length < 2) continue;
      const counts = out.get(criterion) ?? { agreements: 0, disagreements: 0 };
      if (new Set(values).size === 1) counts.agreements++;
      else counts.disagreements++;
      out.set(criterion, counts);
    }
  }
  return out;
}

/** The criteria_view_mode of the request: criteria when asked, else score (the default). */
export function viewModeOf(value: unknown): ViewMode {
  return value === 'criteria' ? 'criteria' : 'score';
}

export function rate(agreements: number, disagreements: number): number {
  return agreements + disagreements === 0 ? 0 : agreements / (agreements + disagreements);
}
