// `npm run drill -- --instances 3 --db postgres://...`: the team-sandbox drills (drill/shared.ts) against N
// instances over one PostgreSQL database, in a schema of their own that is dropped afterwards.
import type { DrillResult, Options } from './context.js';
import type { Recorder } from './http.js';
import { Instances, drillSchemaUrl, pgExec } from './instances.js';
import { printResult } from './report.js';
import type { Receiver } from './receiver.js';
import type { SandboxLog } from './sandbox-process.js';
import { localRestartCommand, sharedCrash, sharedIsolation, sharedRaces, sharedRestart, type SharedOptions } from './shared.js';

export async function runSharedDrills(options: Options & { db: string; instances: number }, rec: Recorder, log: SandboxLog, receiver: Receiver): Promise<DrillResult[]> {
  const say = (line: string): void => {
    if (!options.quiet) process.stderr.write(`${line}\n`);
  };
  const { url, schema } = drillSchemaUrl(options.db, options.seed);
  const shared: SharedOptions = { seed: options.seed, raceSize: options.raceSize, raceRounds: options.raceRounds, restartCommand: options.pgRestart ?? localRestartCommand(options.db) };
  const results: DrillResult[] = [];
  const inst = await Instances.launch(url, options.instances, log);
  try {
    for (const p of inst.all) {
      if (p.info.admin_token !== inst.info.admin_token || p.info.api_key !== inst.info.api_key) {
        throw new Error('instances started together disagree on the admin token or the development key');
      }
    }
    say(`drill: ${options.instances} instances (pids ${inst.all.map((p) => p.pid).join(', ')}) on schema ${schema}, seed ${options.seed}`);
    const order = [
      ['races', () => sharedRaces(inst, shared)],
      ['isolation', () => sharedIsolation(inst)],
      ['crash', () => sharedCrash(inst, receiver, shared)],
      ['restart', () => sharedRestart(inst, shared)],
    ] as const;
    for (const [name, run] of order) {
      if (!options.only.includes(name as never) && !(name === 'restart' && options.only.includes('crash'))) continue;
      say(`drill: shared ${name} ...`);
      const started = performance.now();
      let r: DrillResult;
      try {
        r = await run();
      } catch (error) {
        r = { name: `shared ${name}` as DrillResult['name'], ok: false, ms: performance.now() - started, numbers: [], findings: [{ kind: 'drill error', detail: (error as Error)?.stack ?? String(error) }], findingCounts: { 'drill error': 1 }, notes: [] };
      }
      results.push(r);
      if (!options.quiet) process.stdout.write(`${printResult(r)}\n`);
    }
  } finally {
    await inst.stop();
    rec.requests += inst.requests;
    try {
      pgExec(options.db, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } catch (error) {
      say(`drill: could not drop schema ${schema}: ${(error as Error).message}`);
    }
  }
  return results;
}
