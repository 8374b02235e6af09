// npm run conformance [-- --base-url URL --api-key KEY] [--other-api-key KEY] [--no-permission-key KEY]
//   [--control-url URL --admin-token TOKEN] [--junit reports/conformance.xml] [--operation ID] [--check TEXT]
// Without --base-url it runs against the in-process sandbox. Exit 1 on any failure, 2 on bad arguments.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient as createControlClient } from '../../generated/control-client/index.js';
import { inProcessTarget } from './in-process.js';
import { junit, summary, table } from './report.js';
import { runSuite } from './run.js';
import { httpTarget, type ControlAccess, type Target } from './target.js';

async function remoteControl(controlUrl: string, adminToken: string, organizationId: string): Promise<ControlAccess> {
  const admin = createControlClient({ baseUrl: controlUrl, headers: { authorization: `Bearer ${adminToken}` }, retry: false }).control;
  return {
    createApiKey: async (permissions) => (await admin.createApiKey(organizationId, { permissions })).api_key.key,
    createOtherOrganizationKey: async () => (await admin.createOrganization({ display_name: 'Conformance other organization' })).api_key.key,
    loadFixtures: async (records) => (await admin.loadFixtures(organizationId, { records: records as never })).records,
    completeRun: async (body) => (await admin.completeRun(organizationId, { wait_for_deliveries: true, ...body })) as { run: Record<string, unknown>; sent: Record<string, unknown>[] },
  };
}

async function main(): Promise<number> {
  let values;
  try {
    values = parseArgs({
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'other-api-key': { type: 'string' },
        'no-permission-key': { type: 'string' },
        'control-url': { type: 'string' },
        'admin-token': { type: 'string' },
        junit: { type: 'string', default: 'reports/conformance.xml' },
        operation: { type: 'string' },
        check: { type: 'string' },
        quiet: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`conformance: ${(error as Error).message}`);
    return 2;
  }
  let target: Target;
  let close = async (): Promise<void> => {};
  if (values['base-url']) {
    let apiKey = values['api-key'];
    let control: ControlAccess | undefined;
    if (values['control-url'] && values['admin-token']) {
      // With the control plane, the suite works in an organization of its own.
      const admin = createControlClient({ baseUrl: values['control-url'], headers: { authorization: `Bearer ${values['admin-token']}` }, retry: false }).control;
      const org = await admin.createOrganization({ display_name: 'Conformance' });
      apiKey = org.api_key.key;
      control = await remoteControl(values['control-url'], values['admin-token'], org.organization.id);
    }
    if (!apiKey) {
      console.error('conformance: --base-url needs --api-key (or --control-url and --admin-token)');
      return 2;
    }
    target = httpTarget({
      baseUrl: values['base-url'],
      apiKey,
      ...(values['other-api-key'] ? { otherApiKey: values['other-api-key'] } : {}),
      ...(values['no-permission-key'] ? { noPermissionKey: values['no-permission-key'] } : {}),
      ...(control ? { control } : {}),
    });
  } else {
    const local = await inProcessTarget();
    target = local.target;
    close = () => local.sandbox.close();
  }
  const started = performance.now();
  const results = await runSuite(target, {
    ...(values.operation ? { operation: values.operation } : {}),
    ...(values.check ? { check: values.check } : {}),
    onResult: values.quiet ? undefined : (r) => process.stderr.write(r.outcome === 'pass' ? '.' : r.outcome === 'fail' ? 'F' : 's'),
  });
  await close();
  if (!values.quiet) process.stderr.write('\n');
  console.log(table(results));
  console.log(`Target: ${target.name}; ${Math.round(performance.now() - started)} ms`);
  mkdirSync(dirname(values.junit!), { recursive: true });
  writeFileSync(values.junit!, junit(results));
  console.log(`JUnit XML: ${values.junit}`);
  return summary(results).failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(2);
  },
);
