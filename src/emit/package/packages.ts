// The packages generated beside the client whose runtime is hand-written in src/: their names, bins and the
// modules their runtime is built from (runtime-build.ts).
import type { RuntimeSpec } from './runtime-build.js';

export interface RuntimePackage {
  dir: string;
  name: string;
  description: string;
  bin: string;
  template: string;
  runtime: RuntimeSpec;
  optionalPeers?: Record<string, string>;
}

/** The client package of the spec (generated/client): the runtimes import its validators instead of bundling them. */
export const CLIENT_PACKAGE = { dir: 'client', name: '@evalplatform/client' } as const;

const CLIENT_DEPENDENCY = { [CLIENT_PACKAGE.dir]: CLIENT_PACKAGE.name };

export const SANDBOX_PACKAGE: RuntimePackage = {
  dir: 'sandbox',
  name: '@evalplatform/sandbox',
  description: 'Stateful sandbox server',
  bin: 'evalplatform-sandbox',
  template: 'sandbox/README.md.hbs',
  runtime: { dir: 'sandbox', index: 'src/sandbox/index.ts', cli: 'src/sandbox/cli.ts', generatedPackages: CLIENT_DEPENDENCY },
};

export const CONFORMANCE_PACKAGE: RuntimePackage = {
  dir: 'conformance',
  name: '@evalplatform/conformance',
  description: 'Conformance suite',
  bin: 'evalplatform-conformance',
  template: 'conformance/README.md.hbs',
  // Its in-process target runs the sandbox package's engine, not a second copy of it.
  runtime: { dir: 'conformance', index: 'src/conformance/index.ts', cli: 'src/conformance/cli.ts', provided: { 'src/sandbox/index.ts': '@evalplatform/sandbox' }, generatedPackages: CLIENT_DEPENDENCY },
  optionalPeers: { '@evalplatform/sandbox': '*' },
};

export const RUNTIME_PACKAGES: readonly RuntimePackage[] = [SANDBOX_PACKAGE, CONFORMANCE_PACKAGE];
