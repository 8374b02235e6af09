// Debian's Chromium for the inspector's browser tests, driven by playwright-core (never a downloaded browser).
// CHROMIUM_PATH overrides /usr/bin/chromium. Without it the tests skip loudly on a developer's machine and fail
// in CI (CI=true), where .ci/run installs the `chromium` package.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Whether the browser tests can run here; says why not, loudly, and throws in CI. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const reason = `inspector browser tests: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI must have it`);
  process.stderr.write(`\n!!! SKIPPED ${reason}\n\n`);
  return false;
}

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
