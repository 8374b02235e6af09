// The takeover side of the delivery queue on a shared store: every instance looks for due deliveries that no
// live instance holds (their creator died, or was cut off from the database past its claim) and sends them on
// from the attempt they had reached. A claim is one UPDATE ... FOR UPDATE SKIP LOCKED, so two instances
// looking at once never take the same entry.
import type { Store } from '../storage/store.js';
import { CLAIM_MARGIN_MS, deliver, type DeliveryOptions } from './deliver.js';

export interface DeliverySweeper {
  stop(): void;
}

export function startDeliverySweeper(store: Store, options: DeliveryOptions, track: (work: Promise<unknown>) => void, intervalMs = 500): DeliverySweeper | null {
  if (!store.claimDueSent) return null;
  const claimDue = store.claimDueSent.bind(store);
  const timer = setInterval(() => {
    try {
      for (const entry of claimDue(options.timeoutMs + CLAIM_MARGIN_MS, 16)) track(deliver(store, entry, options));
    } catch {
      // The database is unreachable: the next round tries again.
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
