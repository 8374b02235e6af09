// The contract between the generic engine and the hand-written rule modules (src/sandbox/rules): a rule
// named in an operation's x-rules can check the request, adjust the record being written, or replace the
// generic action; a rule named in x-handlers handles an event.
import type { Json } from '../storage/store.js';
import type { ActionResult, RaisedEvent, RequestContext, Runtime } from './context.js';

export interface Rule {
  /** Checks before the action runs (inside the transaction); throws ApiFailure to refuse. */
  before?(ctx: RequestContext): void;
  /** Adjusts the data a create (`previous` undefined) or update is about to store; throws to refuse. */
  write?(ctx: RequestContext, next: Json, previous: Json | undefined): void;
  /** Replaces the generic action of the operation. */
  handle?(ctx: RequestContext): ActionResult;
  /**
   * Answers an operation that reads and writes no record, outside any store transaction, so slow work (a SQL
   * test in a child process) holds no lock: no other rule hook runs for it.
   */
  handleUnlocked?(ctx: RequestContext): Promise<ActionResult>;
  /** Runs after the action, still inside the transaction. */
  after?(ctx: RequestContext, result: ActionResult): void;
  /** Handles an event (x-handlers), after the raising transaction committed. */
  onEvent?(runtime: Runtime, event: RaisedEvent): Promise<void> | void;
}

export interface Hooks {
  write(ctx: RequestContext, next: Json, previous: Json | undefined): void;
}
