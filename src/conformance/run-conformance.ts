// runConformance: the suite as a function users call from their own test runner (and the CLI calls too).
// Against a base URL with a key, or, with the sandbox's control plane, in an organization of its own so every
// check can run; without a base URL, against an in-process sandbox (loaded only then, so the conformance
// package needs the sandbox package only for that mode).
import { createClient as createControlClient } from '../../generated/control-client/index.js';
import type { CheckResult, NotRun } from './result.js';
import { notRunChecks } from './not-run.js';
import { runSuite } from './run.js';
import { generatedSuite } from './suite-data.js';
import { isLoopback, startHttpReceiver } from './http-receiver.js';
import { httpTarget, type ControlAccess, type Target } from './target.js';

export interface ConformanceOptions {
  /** The API's base URL (`http://127.0.0.1:4010/v1`); omitted: an in-process sandbox. */
  baseUrl?: string;
  /** A key with every permission; not needed with `controlUrl` and `adminToken`. */
  apiKey?: string;
  /** A key of another organization (isolation checks). */
  otherApiKey?: string;
  /** A key of the same organization without permissions (403 checks). */
  noPermissionKey?: string;
  /** The sandbox control plane's URL (`http://127.0.0.1:4010/control`) and admin token. */
  controlUrl?: string;
  adminToken?: string;
  /**
   * A webhook receiver on 127.0.0.1 for the delivery checks (default: when the base URL is on this machine, which
   * is the only place it can reach the receiver).
   */
  receiver?: boolean;
  /** Time limit per check (default 60 s); a check over it is a failure under its own name, and the run goes on. */
  timeoutMs?: number;
  /** How long a launched run may take to finish in the execution check (default 45 s; keep it under timeoutMs). */
  runTimeoutMs?: number;
  /** Only operations whose id contains this text. */
  operation?: string;
  /** Only checks whose name contains this text. */
  check?: string;
  /** Called after each check. */
  onResult?: (result: CheckResult) => void;
}

/** Bad options (a base URL without a key or a control plane). The CLI maps it to exit status 2. */
export class ConformanceOptionsError extends Error {}

function controlAccess(controlUrl: string, adminToken: string, organizationId: string): ControlAccess {
  const admin = createControlClient({ baseUrl: controlUrl, bearerToken: adminToken, retry: false }).control;
  return {
    createApiKey: async (permissions) => (await admin.createApiKey(organizationId, { permissions })).api_key.key,
    createOtherOrganizationKey: async () => (await admin.createOrganization({ display_name: 'Conformance other organization' })).api_key.key,
    createOrganizationWithoutDefaultWorkspace: async () => {
      const made = await admin.createOrganization({ display_name: 'Conformance organization without a default workspace' });
      await admin.archiveDefaultWorkspace(made.organization.id);
      return made.api_key.key;
    },
    loadFixtures: async (records) => (await admin.loadFixtures(organizationId, { records: records as never })).records,
    completeRun: async (body) => (await admin.completeRun(organizationId, { wait_for_deliveries: true, ...body })) as { run: Record<string, unknown>; sent: Record<string, unknown>[] },
    setRunExecution: async (mode) => void (await admin.setRunExecution(organizationId, { mode })),
    // The sent log waits for every pending delivery before it answers (wait defaults to true); the kind filter
    // keeps the answer small.
    idle: async () => void (await admin.listSent({ query: { organization_id: organizationId, kind: 'alert_notification', wait: true } })),
  };
}

/** The target the options describe, and how to release it. */
async function conformanceTarget(options: ConformanceOptions): Promise<{ target: Target; close(): Promise<void> }> {
  if (!options.baseUrl) {
    const { inProcessTarget } = await import('./in-process.js');
    const local = await inProcessTarget();
    if (options.runTimeoutMs !== undefined) local.target.runTimeoutMs = options.runTimeoutMs;
    return { target: local.target, close: () => local.sandbox.close() };
  }
  let apiKey = options.apiKey;
  let control: ControlAccess | undefined;
  if (options.controlUrl && options.adminToken) {
    // With the control plane, the suite works in an organization of its own.
    const admin = createControlClient({ baseUrl: options.controlUrl, bearerToken: options.adminToken, retry: false }).control;
    const org = await admin.createOrganization({ display_name: 'Conformance' });
    apiKey = org.api_key.key;
    control = controlAccess(options.controlUrl, options.adminToken, org.organization.id);
  }
  if (!apiKey) throw new ConformanceOptionsError('a base URL needs an API key (or the control URL and admin token)');
  const receiver = (options.receiver ?? isLoopback(options.baseUrl)) ? await startHttpReceiver(control?.idle) : undefined;
  const target = httpTarget({
    baseUrl: options.baseUrl,
    apiKey,
    ...(options.otherApiKey ? { otherApiKey: options.otherApiKey } : {}),
    ...(options.noPermissionKey ? { noPermissionKey: options.noPermissionKey } : {}),
    ...(control ? { control } : {}),
    ...(receiver ? { receiver } : {}),
  });
  if (options.runTimeoutMs !== undefined) target.runTimeoutMs = options.runTimeoutMs;
  return { target, close: async () => receiver?.close() };
}

/** The longest check of a run against the sandbox bin takes a few seconds (its deliveries' retries), so a minute is ample. */
const CHECK_LIMIT_MS = 60_000;

/** Runs every applicable check and returns the results (it never throws for a failed check). */
export async function runConformance(options: ConformanceOptions = {}): Promise<CheckResult[]> {
  const { target, close } = await conformanceTarget(options);
  try {
    return await runSuite(target, {
      ...(options.operation ? { operation: options.operation } : {}),
      ...(options.check ? { check: options.check } : {}),
      timeoutMs: options.timeoutMs ?? CHECK_LIMIT_MS,
      ...(options.onResult ? { onResult: options.onResult } : {}),
    });
  } finally {
    await close();
  }
}

/**
 * The checks a run with these options leaves out because the spec lacks what they check, each with its reason
 * (reported as "not run", never as skipped: issue 27).
 */
export function conformanceNotRun(options: Pick<ConformanceOptions, 'operation' | 'check'> = {}): NotRun[] {
  const routes = generatedSuite.routes.filter((r) => options.operation === undefined || r.id.includes(options.operation));
  return notRunChecks(generatedSuite, { routes, ...(options.check ? { check: options.check } : {}) });
}
