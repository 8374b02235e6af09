// What a rule or an action sees while one request is handled.
import type { ApiKeyRecord, Json, StoredRecord, Store } from '../storage/store.js';
import type { HeaderReader } from '../http/exchange.js';
import type { ResourceRow, Route, Tables } from './tables.js';

export interface Clock {
  now(): Date;
}

/** An event raised by an operation or the control plane, handled after the transaction commits. */
export interface RaisedEvent {
  name: string;
  org: string;
  workspace: string | null;
  payload: Json;
}

export interface Runtime {
  store: Store;
  tables: Tables;
  clock: Clock;
  resource(name: string): ResourceRow;
  routeById(id: string): Route;
  /** Queue an event; handlers run after the current request's transaction commits. */
  raise(event: RaisedEvent): void;
  /** The run executor of this instance (src/sandbox/runs/executor.ts); absent where nothing executes runs. */
  runs?: RunControl;
}

/** What rules and the control plane ask of the run executor. */
export interface RunControl {
  /** A run was queued (its launch is committing): look for work at once rather than at the next sweep. */
  wake(): void;
  /** A run was cancelled, deleted or completed elsewhere: stop executing it on this instance. */
  stop(runId: string): void;
  /**
   * A claim in this instance's name (queue owner and lease end), for a job queued to be done here at once (a metric
   * test, a re-scoring: runs/metrics/metric-jobs.ts); another instance takes it over only if this one dies.
   */
  claim(): { owner: string; lease_until: number };
  /** Does a queued job this instance holds now, its lease renewed while it runs and the job aborted on close. */
  execute(key: string, job: (signal: AbortSignal) => Promise<void>): Promise<void>;
}

export interface RequestContext {
  runtime: Runtime;
  route: Route;
  key: ApiKeyRecord | null;
  org: string;
  /** The resolved workspace id, or null when none resolves. */
  workspace: string | null;
  /** Whether the resolved workspace is the organization's default one. */
  workspaceIsDefault: boolean;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  /** The validated JSON body (an own-property object when the route takes one). */
  body: Json;
  hasBody: boolean;
  requestHeaders: HeaderReader;
  /** Origin the request was addressed to (`http://127.0.0.1:4010`). */
  origin: string;
  now: string;
}

/** What an action produced: a record to present, a page of records, or a finished body. */
export interface ActionResult {
  record?: StoredRecord;
  records?: StoredRecord[];
  nextPageToken?: string;
  /** Number of records before paging (for a list's total_count). */
  total?: number;
  body?: unknown;
  status?: number;
  /** For a text body (a YAML document): its media type. */
  contentType?: string;
}
