// Events raised by a committed request (x-emits) or by the control plane go to the rule modules that
// x-handlers names for them, in declaration order. Handlers that do network work (webhook deliveries) run
// in the background; `idle()` waits for all of them, so tests and the control plane can observe results.
import type { RaisedEvent, Runtime } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';

export interface EventBus {
  publish(events: RaisedEvent[]): Promise<void>;
  /** Tracks background work (deliveries and their retries). */
  track(work: Promise<unknown>): void;
  idle(): Promise<void>;
}

export function createEventBus(getRuntime: () => Runtime, rules: Record<string, Rule>, log: (line: string) => void): EventBus {
  const pending = new Set<Promise<unknown>>();
  const bus: EventBus = {
    async publish(events) {
      const runtime = getRuntime();
      for (const event of events) {
        for (const handler of runtime.tables.handlers.filter((h) => h.on === event.name)) {
          try {
            await rules[handler.rule]!.onEvent?.(runtime, event);
          } catch (error) {
            log(`sandbox: handler ${handler.rule} failed on ${event.name}: ${(error as Error)?.message ?? String(error)}`);
          }
        }
      }
    },
    track(work) {
      const p = work.catch((error: unknown) => log(`sandbox: background work failed: ${(error as Error)?.message ?? String(error)}`)).finally(() => pending.delete(p));
      pending.add(p);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
  return bus;
}
