/// <reference lib="dom" />
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

// Debian's Chromium (`apt-get install chromium`; .ci/run installs it), or the one CHROMIUM_PATH names.
export const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => path && existsSync(path));
export const CHROMIUM_SKIP = CHROMIUM ? '' : ' — skipped: no Chromium here (apt-get install chromium, or set CHROMIUM_PATH)';

/** Git-ignored: the pictures a person looks at after a run. */
export const SCREENSHOTS = join(fileURLToPath(new URL('../../', import.meta.url)), 'test-output', 'screenshots');

/** `args`: more command-line switches, such as `--host-resolver-rules` to point a made-up name at 127.0.0.1. */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', ...args] });
}

/** Wider than the window means a long name or value pushed the page sideways. */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
