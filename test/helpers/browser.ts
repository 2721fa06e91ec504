/** A real headless Chromium (shipped inside @sparticuz/chromium, nothing downloaded) driven by playwright-core, with a fresh profile. */
import chromium from '@sparticuz/chromium';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium as playwright, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from '../../testnet/bundle.ts';
import { tempDir } from './node.ts';

export async function launchBrowser(): Promise<BrowserContext> {
  return playwright.launchPersistentContext(tempDir('mmnode-chromium-'), {
    executablePath: await chromium.executablePath(), headless: true,
    // The machine runs tests as root: no sandbox; and nothing that would reach out to the network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Saves a screenshot under test-output/ (not committed) and prints where. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join(ROOT, 'test-output');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`  screenshot: ${path}`);
}
