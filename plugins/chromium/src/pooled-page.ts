import type { BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core'

/** A page kept warm between renders, with what the cleaning step needs to know about it. */
export interface PooledPage {
  readonly page: Page
  readonly cdp: CDPSession
  /** http(s) origins its frames visited since it was last cleaned (their storage is wiped) */
  readonly origins: Set<string>
  /** the emulated viewport now in effect (renders set theirs, an unchanged one stays) */
  viewport: string | undefined
  /** the `locale` override in effect (page-locale.ts); undefined: the browser's own */
  locale: string | undefined
  /** page scripts are switched off (a document that cannot run any, see mayRunScripts) */
  scriptsOff: boolean
  /** scripts ran or a frame navigated: the window must be replaced before the next render */
  dirty: boolean
  uses: number
}

export interface Viewport {
  width: number
  height: number
  deviceScaleFactor: number
}

export const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 720, deviceScaleFactor: 1 }

/**
 * Every render states its viewport; only a change is sent. Resetting it after each render
 * instead resizes the page twice, and a resize can stall the next screenshot for seconds.
 */
export async function useViewport(pooled: PooledPage, viewport: Viewport): Promise<void> {
  const key = `${viewport.width}x${viewport.height}@${viewport.deviceScaleFactor}`
  if (pooled.viewport === key) return
  await pooled.cdp.send('Emulation.setDeviceMetricsOverride', { ...viewport, mobile: false })
  pooled.viewport = key
}

/**
 * Scripts off for a document that has none: then no JS state can outlive the render, and the
 * page is reused without a navigation (about:blank costs about as much CPU as the render).
 * Only a change is sent.
 */
export async function useScripts(pooled: PooledPage, allowed: boolean): Promise<void> {
  if (allowed) pooled.dirty = true
  if (pooled.scriptsOff !== allowed) return
  await pooled.cdp.send('Emulation.setScriptExecutionDisabled', { value: !allowed })
  pooled.scriptsOff = !allowed
}

/** Every context: viewport from the window (renders set their own), no downloads, no service workers. */
export const BASE_CONTEXT_OPTIONS: BrowserContextOptions = {
  viewport: null,
  acceptDownloads: false,
  serviceWorkers: 'block',
}

// a renderer that lives long leaks; a fresh page every so often costs ~50 ms once
export const PAGE_MAX_USES = 200
const CLEAN_TIMEOUT_MS = 5_000

export async function openPage(context: BrowserContext): Promise<PooledPage> {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  const pooled: PooledPage = {
    page,
    cdp,
    origins: new Set(),
    viewport: undefined,
    locale: undefined,
    scriptsOff: false,
    dirty: false,
    uses: 0,
  }
  page.on('framenavigated', (frame) => {
    const origin = httpOrigin(frame.url())
    if (origin) {
      pooled.origins.add(origin)
      pooled.dirty = true
    }
  })
  // a popup is never part of the output; closing it stops whatever it would load
  page.on('popup', (popup) => void popup.close({ runBeforeUnload: false }).catch(() => {}))
  return pooled
}

function httpOrigin(text: string): string | undefined {
  if (!text.startsWith('http:') && !text.startsWith('https:')) return undefined
  try {
    return new URL(text).origin
  } catch {
    return undefined
  }
}

/**
 * Wipes what a render left: cookies and the storage of every origin its frames visited; after
 * scripts ran, also the window (about:blank gives a new one, so no globals or timers survive)
 * and window.name, which survives navigation. A page that is not reused only needs the former.
 */
export async function cleanPage(
  context: BrowserContext,
  pooled: PooledPage,
  reuse: boolean,
): Promise<boolean> {
  const { page, cdp } = pooled
  try {
    await withTimeout(
      (async () => {
        await context.clearCookies()
        for (const origin of pooled.origins)
          await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })
        pooled.origins.clear()
        if (!reuse || !pooled.dirty) return
        await page.goto('about:blank', { timeout: CLEAN_TIMEOUT_MS })
        // straight through CDP: Playwright would set up its own world for an evaluate first
        await cdp.send('Runtime.evaluate', { expression: "window.name = ''" })
        pooled.origins.clear()
        pooled.dirty = false
      })(),
      CLEAN_TIMEOUT_MS,
    )
    return true
  } catch {
    return false
  }
}

export async function closePage(pooled: PooledPage): Promise<void> {
  await withTimeout(pooled.page.close({ runBeforeUnload: false }), CLEAN_TIMEOUT_MS).catch(() => {})
}

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
