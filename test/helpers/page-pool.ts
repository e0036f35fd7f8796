// The pages of a browser, kept between tests. Much of what a test's page costs is its making: a
// context and a renderer process of its own, the SDK's scripts compiled anew (bench/TEST-SUITE.md
// measures it). A page given back ends its document, as a closed tab would (the SDK's sockets and
// peer connections close, its camera stops), forgets everything its origin kept (storage, cookies),
// sheds the listeners the test set on it, and waits on about:blank; the next page asked of the same
// browser with the same viewport and the same script before its own is that one, navigated anew: a
// fresh document for a first-time visitor, as a new tab would be. What the SDKs keep decides what they
// do (both skip their device probe for a returning user), so it goes. The HTTP cache, which a browser's
// tabs share, stays: it holds only what its servers said may be kept (the SDK and kit packages' files,
// web-sdk.ts PACKAGE_FILE_CACHING), the same bytes a request would bring.
import type { Browser, CDPSession, Page } from 'playwright-core';

/** What a page is made with: the kind of page that may stand in for another. */
export interface PageKind {
  viewport?: { width: number; height: number };
  /** A script that runs in each of its documents before any of their own (Playwright's addInitScript). */
  initScript?: string;
  /**
   * Its timers on Playwright's clock, installed before its first document: a clock a test moved stays
   * moved for the page's next document, so such a page is closed when it is given back, never kept.
   */
  fakeClock?: boolean;
}

/** A page takePage may hand out again: its kind, and the DevTools session that clears its origin's data. */
interface Kept {
  key: string;
  cdp: CDPSession;
  /** Given back, and not taken since. */
  waiting: boolean;
}

const idle = new WeakMap<Browser, Map<string, Page[]>>();
/** The pages that may be handed out again (a page of a fake clock is not among them). */
const kept = new WeakMap<Page, Kept>();

/** A page of `browser` of this kind: one given back earlier (on about:blank), or a new one. */
export async function takePage(browser: Browser, kind: PageKind = {}): Promise<Page> {
  const key = JSON.stringify([kind.viewport ?? null, kind.initScript ?? null]);
  if (!kind.fakeClock) {
    const waiting = idle.get(browser)?.get(key) ?? [];
    for (let page = waiting.pop(); page; page = waiting.pop())
      if (!page.isClosed()) {
        kept.get(page)!.waiting = false;
        return page;
      }
  }
  const page = await browser.newPage(kind.viewport ? { viewport: kind.viewport } : {});
  if (kind.fakeClock) await page.clock.install();
  if (kind.initScript !== undefined) await page.addInitScript(kind.initScript);
  if (!kind.fakeClock) kept.set(page, { key, cdp: await page.context().newCDPSession(page), waiting: false });
  return page;
}

/**
 * Gives a page of takePage back: its document ends, its origin's storage and its context's cookies
 * go, and so do the listeners set on it, and it waits for the next takePage of its kind.
 * A page of a fake clock, one not made by takePage, or one that does not come back to about:blank is
 * closed instead; a page given back already, or closed, is left as it is.
 */
export async function givePage(page: Page): Promise<void> {
  const own = kept.get(page);
  if (page.isClosed() || own?.waiting) return;
  if (!own) return page.close();
  try {
    const origin = new URL(page.url()).origin;
    // Session storage lives in the tab, per origin, and only a document of that origin reaches it.
    if (origin !== 'null') await page.evaluate('sessionStorage.clear()');
    page.removeAllListeners();
    await page.goto('about:blank');
    if (origin !== 'null') await own.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await page.context().clearCookies();
  } catch {
    return page.close().catch(() => undefined);
  }
  const browser = page.context().browser();
  if (!browser) return page.close();
  let byKind = idle.get(browser);
  if (!byKind) idle.set(browser, (byKind = new Map()));
  let waiting = byKind.get(own.key);
  if (!waiting) byKind.set(own.key, (waiting = []));
  waiting.push(page);
  own.waiting = true;
}
