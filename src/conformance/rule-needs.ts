// What the operations of some rule modules need of the records and bodies the World builds, so every generic
// check (happy path, auth, limits, ...) can reach a 2xx: the rule names come from the spec's x-rules, like the
// rule checks'. `record`: fields of the operation's own resource when the World creates it for the operation
// (a recording for the audio URL, metric results for the metric outputs); `body`: fields of its request body
// (existing simulations and metrics for a re-run).
import type { Route } from './suite-data.js';

export interface NeedsWorld {
  ensure(resource: string): Promise<{ id: string }>;
}

type Fields = Record<string, unknown>;

const NEEDS: Record<string, { record?: (world: NeedsWorld, resource: string) => Promise<Fields>; body?: (world: NeedsWorld) => Promise<Fields> }> = {
  'conversation-audio-url': {
    record: async (_world, resource) => (resource === 'simulation' ? { has_audio: true } : { audio_url: 'https://storage.example.com/conformance.wav', audio: undefined, upload_id: undefined }),
  },
  'conversation-metric-outputs': {
    record: async (world, resource) => {
      const metric = (await world.ensure('metric')).id;
      return resource === 'simulation' ? { metric_values: { [metric]: 1 } } : { metrics: [metric] };
    },
  },
  'simulation-rerun-metrics': {
    body: async (world) => ({ simulation_ids: [(await world.ensure('simulation')).id], metric_ids: [(await world.ensure('metric')).id] }),
  },
};

/** Fields the operation's own record needs, or null when its rules need nothing. */
export async function recordNeeds(route: Route, world: NeedsWorld): Promise<Fields | null> {
  const makers = route.rules.flatMap((r) => (NEEDS[r]?.record ? [NEEDS[r]!.record!] : []));
  if (makers.length === 0 || route.resource === null) return null;
  const out: Fields = {};
  for (const make of makers) Object.assign(out, await make(world, route.resource));
  return out;
}

export async function bodyNeeds(route: Route, world: NeedsWorld): Promise<Fields> {
  const out: Fields = {};
  for (const r of route.rules) if (NEEDS[r]?.body) Object.assign(out, await NEEDS[r]!.body!(world));
  return out;
}
