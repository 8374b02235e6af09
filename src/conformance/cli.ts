// npm run conformance [-- --base-url URL --api-key KEY] [--other-api-key KEY] [--no-permission-key KEY]
//   [--control-url URL --admin-token TOKEN] [--junit reports/conformance.xml] [--operation ID] [--check TEXT]
// Also the bin `evalplatform-conformance` of the generated package (built from this file).
// Without --base-url it runs against the in-process sandbox. Exit 1 on any failure, 2 on bad arguments (with the usage).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { ConformanceOptionsError, conformanceNotRun, junit, runConformance, summary, table, type CheckResult } from './index.js';

const USAGE = `Usage: evalplatform-conformance (npm run conformance --) [--base-url URL (--api-key KEY | --control-url URL --admin-token T)]
    [--other-api-key KEY] [--no-permission-key KEY] [--junit reports/conformance.xml] [--timeout-ms MS per check, default 60000]
    [--run-timeout-ms MS a launched run may take, default 45000] [--operation ID] [--check TEXT] [--quiet]
  Without --base-url: the in-process sandbox (needs @evalplatform/sandbox). Exit 1 on any failed check, 2 on bad flags.
`;

function usageError(message: string): number {
  process.stderr.write(`conformance: ${message}\n${USAGE}`);
  return 2;
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
        'timeout-ms': { type: 'string' },
        'run-timeout-ms': { type: 'string' },
        operation: { type: 'string' },
        check: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values['base-url'] !== undefined && !URL.canParse(values['base-url'])) return usageError(`--base-url is not a URL: ${values['base-url']}`);
  if (values['control-url'] !== undefined && !URL.canParse(values['control-url'])) return usageError(`--control-url is not a URL: ${values['control-url']}`);
  const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms']);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) return usageError(`--timeout-ms must be a positive integer, got ${values['timeout-ms']}`);
  const runTimeoutMs = values['run-timeout-ms'] === undefined ? undefined : Number(values['run-timeout-ms']);
  if (runTimeoutMs !== undefined && !(Number.isInteger(runTimeoutMs) && runTimeoutMs > 0)) return usageError(`--run-timeout-ms must be a positive integer, got ${values['run-timeout-ms']}`);
  const started = performance.now();
  let results;
  try {
    results = await runConformance({
      ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
      ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
      ...(values['other-api-key'] ? { otherApiKey: values['other-api-key'] } : {}),
      ...(values['no-permission-key'] ? { noPermissionKey: values['no-permission-key'] } : {}),
      ...(values['control-url'] ? { controlUrl: values['control-url'] } : {}),
      ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
      ...(values.operation ? { operation: values.operation } : {}),
      ...(values.check ? { check: values.check } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(runTimeoutMs ? { runTimeoutMs } : {}),
      ...(values.quiet ? {} : { onResult: (r: CheckResult) => process.stderr.write(r.outcome === 'pass' ? '.' : r.outcome === 'fail' ? 'F' : r.outcome === 'skip' ? 's' : '-') }),
    });
  } catch (error) {
    if (error instanceof ConformanceOptionsError) return usageError(error.message);
    throw error;
  }
  if (!values.quiet) process.stderr.write('\n');
  // The checks the spec gives nothing to check, with their reason (the operations and check asked for only).
  const notRun = conformanceNotRun({ ...(values.operation ? { operation: values.operation } : {}), ...(values.check ? { check: values.check } : {}) });
  console.log(table(results, notRun));
  console.log(`Target: ${values['base-url'] ?? 'in-process sandbox'}; ${Math.round(performance.now() - started)} ms`);
  mkdirSync(dirname(values.junit!), { recursive: true });
  writeFileSync(values.junit!, junit(results, 'conformance', notRun));
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
