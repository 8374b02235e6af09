// createSandbox: the stateful sandbox of the API as a fetch-style handler `(Request) => Promise<Response>`
// (hand it to the generated client as its `fetch`) and, on demand, a real HTTP listener on 127.0.0.1.
import { handleControl } from './control/control-plane.js';
import type { Clock, Runtime } from './engine/context.js';
import { createDispatcher } from './engine/dispatch.js';
import { loadGeneratedTables, type Route, type Tables } from './engine/tables.js';
import { createEventBus } from './events/bus.js';
import { startupFaults } from './faults/startup.js';
import { FaultInjector, registerInjector } from './faults/injector.js';
import { NO_FAULTS } from './faults/config.js';
import type { FetchLike } from './events/deliver.js';
import { json } from './http/respond.js';
import { Router } from './http/router.js';
import { fromWebRequest, toWebResponse, type SandboxRequest, type SandboxResponse } from './http/exchange.js';
import { drained, fromNodeRequest, writeNodeResponse } from './http/node-adapter.js';
import { Listeners } from './http/listeners.js';
import { secret } from './ids.js';
import { createOrganization } from './organizations.js';
import { handleInspector, INSPECTOR_PATH } from './inspector/handler.js';
import { RULES } from './rules/index.js';
import type { Rule } from './engine/hooks.js';
import { openStore } from './storage/open.js';
import { startDeliverySweeper } from './events/queue.js';
import { deliveryOptions } from './rules/events/outbound.js';
import type { Store } from './storage/store.js';
import { configureJudge, type JudgeEndpointOptions } from './runs/metrics/judge-endpoint.js';
import { createRunExecutor } from './runs/executor.js';
import { setExecutionMode } from './runs/execution-mode.js';
import { resetRunQueue } from './runs/run-queue.js';
import { resolveExecutionOptions, type RunExecutionOptions } from './runs/execution-options.js';
import { outboundFetch } from './http/outbound.js';
import { scoreSimulation } from './runs/metrics/score.js';

export interface SandboxOptions {
  /**
   * SQLite database file, `:memory:` (default), or a `postgres://user:password@host:port/database` URL: the
   * shared store several instances use as one sandbox (docs/sandbox.md, Storage).
   */
  db?: string;
  /** A store to use instead of opening `db` (another backend). */
  store?: Store;
  /** Admin token of the control plane (default: generated once and kept in the database). */
  adminToken?: string;
  /** Fetch used for webhook deliveries (default: the platform fetch). */
  deliveryFetch?: FetchLike;
  /** Webhook delivery retries: attempts in all and the first backoff delay. */
  delivery?: { attempts?: number; baseDelayMs?: number; timeoutMs?: number };
  clock?: Clock;
  /** Where internal errors are reported (default: standard error). Never receives keys or tokens. */
  log?: (line: string) => void;
  /** The generated tables (default: generated/sandbox). */
  tables?: Tables;
  /** Rule modules that replace the registry's by name (tests break a rule on purpose with this). */
  rules?: Record<string, Rule>;
  /**
   * A chat-completions endpoint that answers judged metrics instead of the deterministic stand-ins (off by
   * default; docs/sandbox.md "Metrics at work (issue 25)").
   */
  judge?: JudgeEndpointOptions;
  /**
   * What the control plane's waits (`GET /sent`, run completions with `wait_for_deliveries`, reset) wait for.
   * Default: this sandbox's own background work; a worker of a pool (pool/pool.ts) waits for every worker's.
   */
  backgroundIdle?: () => Promise<void>;
  /**
   * Faults on demand from the start (issue 29): the configuration `PUT /control/faults` takes,
   * `{ seed, rules: [...] }` (docs/sandbox.md, "Faults on demand"). Invalid: createSandbox throws naming the field.
   */
  faults?: unknown;
  /** How launched runs are executed: pace, agent call limits, concurrency, claims (docs/sandbox.md "Runs at work"). */
  runs?: RunExecutionOptions;
}

export interface Sandbox {
  /** The fetch-style handler. */
  fetch(request: Request): Promise<Response>;
  readonly adminToken: string;
  /** The development organization's API key (every permission). */
  readonly apiKey: string;
  readonly organizationId: string;
  /** The development organization's default workspace (what a call without a workspace header works in), read now. */
  readonly defaultWorkspaceId: string | undefined;
  /** Base path of the API (`/v1`), of the control plane (`/control`) and of the inspector page (`/inspector`). */
  readonly basePath: string;
  readonly controlPath: string;
  readonly inspectorPath: string;
  /** Waits until background work (webhook deliveries and their retries) is done. */
  idle(): Promise<void>;
  /** The engine's own entry, without HTTP: what the listener and a pool worker (pool/worker.ts) call. */
  handle(request: SandboxRequest): Promise<SandboxResponse>;
  listen(options?: { port?: number; host?: string }): Promise<{ url: string; baseUrl: string; controlUrl: string; inspectorUrl: string; close(): Promise<void> }>;
  close(): Promise<void>;
  readonly runtime: Runtime;
}

export const CONTROL_PATH = '/control';

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const tables = options.tables ?? (await loadGeneratedTables());
  // A shared store caches the workspace records every request resolves (besides keys and organizations).
  const store = options.store ?? openStore(options.db ?? ':memory:', { cachedKinds: tables.workspace ? [tables.workspace.resource] : [] });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const rules: Record<string, Rule> = { ...RULES, ...options.rules };
  const missing = [...new Set([...tables.routes.flatMap((r) => r.rules), ...tables.handlers.map((h) => h.rule)])].filter((name) => !(name in rules));
  if (missing.length > 0) throw new Error(`sandbox: no rule module for ${missing.join(', ')} (see src/sandbox/rules/index.ts)`);

  const resources = new Map(tables.resources.map((r) => [r.name, r]));
  const routesById = new Map(tables.routes.map((r) => [r.id, r]));
  const clock: Clock = options.clock ?? { now: () => new Date() };
  const delivery = {
    fetch: options.deliveryFetch ?? ((input: string, init: Parameters<FetchLike>[1]) => outboundFetch(input, init)),
    attempts: options.delivery?.attempts ?? 4,
    baseDelayMs: options.delivery?.baseDelayMs ?? 250,
    timeoutMs: options.delivery?.timeoutMs ?? 10_000,
  };
  // Assigned once below: the bus needs the runtime, and the runtime's hooks call the bus.
  let bus: ReturnType<typeof createEventBus>;
  const runtime: Runtime & { delivery: typeof delivery; track(work: Promise<unknown>): void } = {
    store,
    tables,
    clock,
    delivery,
    resource(name) {
      const r = resources.get(name);
      if (!r) throw new Error(`sandbox: unknown resource ${name}`);
      return r;
    },
    routeById(id) {
      const r = routesById.get(id);
      if (!r) throw new Error(`sandbox: unknown operation ${id}`);
      return r;
    },
    raise(event) {
      // Raised outside a request (a background rescoring, a run finishing): tracked, so idle() waits for its handlers.
      bus.track(bus.publish([event]));
    },
    track(work) {
      bus.track(work);
    },
  };
  bus = createEventBus(() => runtime, rules, log);
  configureJudge(runtime, options.judge);
  // Launched runs are executed here; their completion's events go through the bus like any other.
  const executor = createRunExecutor({ runtime, options: resolveExecutionOptions(options.runs), score: scoreSimulation, publish: (events) => bus.track(bus.publish(events)), log });
  runtime.runs = executor;

  const seed = (): { key: string; org: string } => {
    const existing = store.meta('dev_api_key');
    const org = store.meta('dev_organization_id');
    if (existing && org && store.getOrganization(org)) return { key: existing, org };
    const key = existing ?? secret('sk_sandbox_dev');
    const created = createOrganization(runtime, 'Development organization', { key, id: org ?? 'org_development' });
    store.setMeta('dev_api_key', key);
    store.setMeta('dev_organization_id', created.organization.id);
    return { key, org: created.organization.id };
  };
  // One write transaction: instances starting together over one shared database agree on the admin token and
  // the development organization (the second finds what the first stored).
  const { adminToken, dev } = store.transaction(() => {
    const token = options.adminToken ?? store.meta('admin_token') ?? secret('admin');
    store.setMeta('admin_token', token);
    return { adminToken: token, dev: seed() };
  });
  // On a shared store, deliveries whose instance died are taken over by this one.
  const sweeper = startDeliverySweeper(store, deliveryOptions(runtime), (work) => bus.track(work));

  const faults = new FaultInjector(options.faults === undefined ? NO_FAULTS : startupFaults(options.faults, tables.routes));
  registerInjector(store, faults);
  const router = new Router<Route>(tables.routes);
  const dispatcher = createDispatcher({ runtime, router, rules, publish: (events) => void bus.track(bus.publish(events)), log, faults });
  const control = {
    runtime,
    adminToken,
    publish: (events: Parameters<typeof bus.publish>[0]) => bus.publish(events),
    idle: options.backgroundIdle ?? (() => bus.idle()),
    faults,
    reset: () => {
      store.reset();
      // Meta survives a reset; the run queue and the development organization's run execution mode do not.
      store.transaction(() => {
        resetRunQueue(store);
        const { org } = seed();
        setExecutionMode(store, org, 'automatic');
      }, 'write');
    },
  };

  // The inspector (a web page over the state, the events and the API reference); its "try it" calls the API.
  const inspector = { runtime, adminToken, api: (request: SandboxRequest) => dispatcher.handle(request, request.url.pathname.slice(tables.basePath.length) || '/') };

  async function handle(request: SandboxRequest): Promise<SandboxResponse> {
    // An API request may check the store's cached keys, organizations and workspaces beside its first read or in
    // the script that begins its write (pg-store.ts); when another instance changed one it used meanwhile, its
    // answer is dropped and it runs again, checked first. Its first answer is dropped whatever it was: nothing of
    // it was written (the check comes before any write), and a request calls out (webhooks, agents) only after
    // its commit. Its body is read again (SandboxRequest.bytes keeps it). The control plane checks first.
    store.newRequest?.(!underPrefix(request.url.pathname, CONTROL_PATH));
    const first = await handleOnce(request);
    if (!store.requestStale?.()) return first;
    // Not deferred: checked before the cache is used, so it cannot be stale.
    store.newRequest?.(false);
    return handleOnce(request);
  }

  async function handleOnce(request: SandboxRequest): Promise<SandboxResponse> {
    const path = request.url.pathname;
    try {
      if (underPrefix(path, CONTROL_PATH)) return await handleControl(control, request, path.slice(CONTROL_PATH.length));
      if (underPrefix(path, INSPECTOR_PATH)) return await handleInspector(inspector, request, path.slice(INSPECTOR_PATH.length));
      if (tables.basePath === '' || path === tables.basePath || path.startsWith(`${tables.basePath}/`)) {
        return await dispatcher.handle(request, path.slice(tables.basePath.length) || '/');
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'No such path.', details: [] } });
    } catch (error) {
      log(`sandbox: internal error: ${(error as Error)?.stack ?? String(error)}`);
      return json(500, { error: { code: 'INTERNAL', message: 'Internal error.', details: [] } });
    }
  }

  /** The fetch-style entry: a Request in, a Response out. */
  async function fetchHandler(request: Request): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return toWebResponse(json(400, { error: { code: 'INVALID_ARGUMENT', message: 'Invalid request URL.', details: [{ field: null, description: 'malformed URL' }] } }));
    }
    return toWebResponse(await handle(fromWebRequest(request, url)));
  }

  const listeners = new Listeners(
    async (req, res, host) => {
      const request = fromNodeRequest(req, host);
      const response = await handle(request);
      await drained(req, request);
      writeNodeResponse(res, response);
    },
    { basePath: tables.basePath, controlPath: CONTROL_PATH, inspectorPath: INSPECTOR_PATH },
  );
  return {
    fetch: fetchHandler,
    adminToken,
    apiKey: dev.key,
    organizationId: dev.org,
    get defaultWorkspaceId() {
      return store.getOrganization(dev.org)?.default_workspace_id;
    },
    basePath: tables.basePath,
    controlPath: CONTROL_PATH,
    inspectorPath: INSPECTOR_PATH,
    runtime,
    idle: () => bus.idle(),
    handle,
    listen: (listenOptions) => listeners.open(listenOptions),
    async close() {
      await listeners.closeAll();
      await executor.close();
      sweeper?.stop();
      await bus.idle();
      store.close();
    },
  };
}

/** Whether `path` is `prefix` or below it. */
function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}
