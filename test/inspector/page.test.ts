// The inspector in a real browser (Debian's Chromium through playwright-core): the page loads, every view is
// reachable with the keyboard, search finds records, a run completed through the control plane shows up as a
// webhook delivery and an alert evaluation, a baseline plot opens, a tag named `<script>` is shown as text, an
// API key's page shows only its organization, and no console error is raised. Screenshots go to reports/inspector/.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launch } from './browser.js';
import { scenario, SCRIPT_TAG, type Scenario } from './scenario.js';

const SHOTS = fileURLToPath(new URL('../../reports/inspector/', import.meta.url));
const available = chromiumAvailable();

describe.skipIf(!available)('inspector in Chromium', () => {
  let s: Scenario;
  let browser: Browser;
  let origin: string;
  let close: () => Promise<void>;
  const problems: string[] = [];

  async function open(token: string, hash = ''): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${origin}/inspector?token=${encodeURIComponent(token)}`);
    if (hash) await page.evaluate((h) => (location.hash = h), hash);
    return page;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await scenario();
    await s.history();
    const server = await s.h.sandbox.listen({ port: 0 });
    origin = server.url;
    close = server.close;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await close?.();
    await s?.h.close();
  });

  it('opens with the token from the printed URL, keeps it out of the address bar, and lists the records', async () => {
    const page = await open(s.h.sandbox.adminToken);
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('heading', { name: 'Sandbox inspector' }).waitFor();
    await page.getByLabel('Organization').selectOption(s.org);
    await page.getByRole('list', { name: 'Records' }).getByText('Support bot').waitFor();
    expect(await page.getByRole('list', { name: 'Records' }).getByRole('link').count()).toBeGreaterThan(4);
    await page.close();
  });

  it('searches, shows a record, its JSON and the difference between two versions', async () => {
    const page = await open(s.key);
    await page.getByRole('searchbox', { name: 'Search' }).fill('support');
    const records = page.getByRole('list', { name: 'Records' });
    await expect.poll(() => records.getByRole('link').count()).toBe(1);
    // Counts read as words: one record in one family, not "1 records in 1 families".
    await expect.poll(() => page.locator('p.count').first().innerText()).toBe('1 record in 1 family');
    await records.getByRole('link', { name: /Support bot/ }).click();
    await page.getByRole('heading', { name: /Support bot/ }).waitFor();
    const diff = page.getByRole('table', { name: 'Difference between versions' });
    await diff.waitFor();
    expect(await diff.innerText()).toContain('Be helpful and brief.');
    // The change a person made comes before the bookkeeping every version brings.
    const paths = await diff.locator('tbody tr td:first-child').allInnerTexts();
    expect(paths.indexOf('prompt')).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf('prompt')).toBeLessThan(paths.indexOf('version_number'));
    expect(await page.getByLabel('Record JSON').innerText()).toContain('"display_name": "Support bot"');
    await page.screenshot({ path: `${SHOTS}state.png`, fullPage: false });
    await page.close();
  });

  it('shows a tag named <script> as text, never as markup', async () => {
    const page = await open(s.key);
    await page.getByRole('searchbox', { name: 'Search' }).fill('pwned');
    const records = page.getByRole('list', { name: 'Records' });
    await expect.poll(() => records.getByRole('link').count()).toBe(1);
    const link = records.getByRole('link').first();
    expect(await link.innerText()).toContain(SCRIPT_TAG.toLowerCase());
    await link.click();
    await page.getByLabel('Record JSON').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.records script, .record script, pre script').count()).toBe(0);
    await page.close();
  });

  it('sees a completed run arrive live with its webhook delivery (attempts, redacted token) and the alert evaluation', async () => {
    const page = await open(s.key, '#/events');
    const timeline = page.getByRole('list', { name: 'Events' });
    await page.getByText(/\d+ events/).waitFor();
    const run = await s.completeRun(0.4, '2026-11-24T10:00:00Z');
    await timeline.getByRole('button', { name: new RegExp(`run\\.completed.*run ${run}`) }).waitFor({ timeout: 15_000 });
    const delivery = timeline.getByRole('button', { name: /webhook\.delivery/ }).first();
    await delivery.waitFor();
    await delivery.click();
    const attempts = page.getByRole('table', { name: 'Attempts' }).first();
    await attempts.waitFor();
    expect(await attempts.innerText()).toMatch(/ms/);
    const headers = await page.getByLabel('Headers').first().innerText();
    expect(headers).toContain('[redacted]');
    expect(await page.content()).not.toContain('whk_secret_token');
    const evaluation = timeline.getByRole('button', { name: /alert\.evaluation/ }).first();
    await evaluation.click();
    const conditions = page.getByRole('table', { name: 'Condition results' }).first();
    await conditions.waitFor();
    expect(await conditions.innerText()).toContain('RUN_AVERAGE');
    await page.screenshot({ path: `${SHOTS}events.png` });
    // Re-send the delivery: a new one appears for the same webhook.
    const before = await timeline.getByRole('button', { name: /webhook\.delivery/ }).count();
    await page.getByRole('button', { name: 'Re-send this delivery' }).first().click();
    await page.getByRole('status').filter({ hasText: 'queued as' }).waitFor();
    await expect.poll(() => timeline.getByRole('button', { name: /webhook\.delivery/ }).count(), { timeout: 10_000 }).toBe(before + 1);
    await page.close();
  });

  it('filters events by kind', async () => {
    const page = await open(s.key, '#/events');
    const timeline = page.getByRole('list', { name: 'Events' });
    await timeline.getByRole('button', { name: /run\.completed/ }).first().waitFor();
    await page.getByLabel('Kind').selectOption('run.completed');
    await expect.poll(async () => (await timeline.innerText()).includes('webhook.delivery')).toBe(false);
    expect(await timeline.getByRole('button', { name: /run\.completed/ }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it('plots a baseline with its sigma bands, bucket width and time zone selectable', async () => {
    const page = await open(s.key, `#/baselines/${s.baseline}`);
    const plot = page.getByRole('img', { name: /EWMA mean with sigma bands/ });
    await plot.locator('canvas').waitFor();
    await page.getByLabel('Bucket width').selectOption('1 day');
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    const table = page.getByRole('table', { name: 'History buckets' });
    await expect.poll(async () => (await table.innerText()).includes('+09:00')).toBe(true);
    await page.screenshot({ path: `${SHOTS}baseline.png` });
    await page.close();
  });

  it('shows the API reference with provenance badges and tries an operation with the caller key', async () => {
    const page = await open(s.key, '#/reference/listTags');
    await page.getByRole('article', { name: 'Operation listTags' }).waitFor();
    expect(await page.getByRole('table', { name: 'Parameters' }).innerText()).toMatch(/1-100/);
    await page.getByRole('button', { name: 'Send GET request' }).click();
    const answer = page.getByRole('status').filter({ hasText: 'Status' });
    await answer.waitFor();
    expect(await answer.innerText()).toContain('200');
    expect(await answer.innerText()).toContain(s.tag);
    expect(await answer.innerText()).not.toContain(s.other.secretName);
    await page.evaluate(() => (location.hash = '#/reference/updateTag'));
    await page.getByText('assumed').first().waitFor();
    await page.screenshot({ path: `${SHOTS}reference.png` });
    await page.close();
  });

  it('an API key sees its own organization only', async () => {
    const page = await open(s.other.key);
    await page.getByRole('list', { name: 'Records' }).getByText(s.other.secretName).waitFor();
    const text = await page.content();
    expect(text).not.toContain('Support bot');
    expect(text).not.toContain(s.org);
    expect(await page.getByLabel('Organization').count()).toBe(0);
    // That organization has no baseline: the tab says how to make one instead of an empty list.
    await page.evaluate(() => (location.hash = '#/baselines'));
    await page.getByText('No baselines yet.').waitFor();
    expect(await page.locator('p.count').first().innerText()).toBe('0 baselines');
    expect(await page.locator('.detail-pane').innerText()).toContain('POST /v1/baselines');
    await page.close();
  });

  it('works with the keyboard: tab to a view, open it with Enter, expand an event with the keyboard', async () => {
    const page = await open(s.key);
    await page.getByRole('list', { name: 'Records' }).getByRole('link').first().waitFor();
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent === 'Events');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/events');
    const first = page.getByRole('list', { name: 'Events' }).getByRole('button').first();
    await first.waitFor();
    await first.focus();
    await page.keyboard.press('Enter');
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    await page.close();
  });

  it('marks a deleted record as deleted in the list and on its page', async () => {
    const client = s.h.clientFor(s.key);
    const created = (await client.tags.createTag({ tag_name: 'obsolete-label' } as never)) as unknown as { tag?: { id: string }; id?: string };
    await client.tags.deleteTag(created.tag?.id ?? created.id!);
    const page = await open(s.key);
    await page.getByRole('searchbox', { name: 'Search' }).fill('obsolete');
    const records = page.getByRole('list', { name: 'Records' });
    await expect.poll(() => records.getByRole('link').count()).toBe(1);
    const item = records.getByRole('listitem').first();
    expect(await item.getAttribute('class')).toContain('deleted');
    expect(await item.innerText()).toContain('deleted');
    await item.getByRole('link').click();
    await page.getByRole('heading', { name: /obsolete-label/ }).getByText('deleted').waitFor();
    await page.close();
  });

  it('raised no console error on any page', () => {
    expect(problems).toEqual([]);
  });
});
