// Real headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for the console's
// end-to-end tests. The flags keep it off the network it cannot reach here (it stalls otherwise);
// playwright gives every launch a fresh temporary profile of its own (it refuses --user-data-dir).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface ConsoleBrowser {
  browser: Browser;
  /** A fresh context (own sessionStorage) and page at 1280×800, the smallest size the console supports. */
  newPage: (viewport?: { width: number; height: number }) => Promise<{ context: BrowserContext; page: Page }>;
  close: () => Promise<void>;
}

export async function launchBrowser(): Promise<ConsoleBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
  });
  return {
    browser,
    newPage: async (viewport = { width: 1280, height: 800 }) => {
      const context = await browser.newContext({ viewport, acceptDownloads: true });
      const page = await context.newPage();
      return { context, page };
    },
    close: () => browser.close(),
  };
}
