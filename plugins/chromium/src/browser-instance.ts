import { type Browser, type BrowserContextOptions, chromium } from 'playwright-core'
import type { ChromiumLaunch } from './chromium-user.ts'
import { BASE_CONTEXT_OPTIONS, closePage, openPage, type PooledPage, withTimeout } from './pooled-page.ts'
import { processTreeRssMb } from './process-memory.ts'
import { type WorkspaceContext, WorkspaceContexts } from './workspace-contexts.ts'

export interface LaunchSettings {
  launch: ChromiumLaunch
  proxyPort: number
  timeoutMs: number
  /** V8 heap limit of each renderer (page scripts), in MB */
  pageHeapMb: number
  idlePages: number
  maxPages: number
  maxContexts: number
}

/** A page on loan for one render; `fresh` pages own their context (URL inputs). */
export interface PageLease {
  readonly pooled: PooledPage
  readonly entry: WorkspaceContext | undefined
}

const CLOSE_TIMEOUT_MS = 5_000

/** Flags Debian Chromium needs on a closed network (it hangs on its own update and sync calls). */
export const CLOSED_NETWORK_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function chromiumArgs(settings: Pick<LaunchSettings, 'proxyPort' | 'pageHeapMb'>): string[] {
  return [
    ...CLOSED_NETWORK_ARGS,
    '--window-size=1280,720',
    // a reused page goes back to about:blank after every render; these make that navigation
    // ~2x cheaper (no back-forward cache, no new browsing instance or frame host per document)
    '--disable-features=BackForwardCache,ProactivelySwapBrowsingInstance,RenderDocument',
    // a page's scripts get a heap of their own size instead of V8's default of several GB: a page
    // allocating without end crashes its renderer within a second, not after eating the machine
    `--js-flags=--max-old-space-size=${settings.pageHeapMb}`,
    // every request leaves through the guard proxy; <-loopback> stops Chromium's built-in
    // bypass for localhost, so 127.0.0.1 is checked like any other address
    `--proxy-server=http://127.0.0.1:${settings.proxyPort}`,
    '--proxy-bypass-list=<-loopback>',
    // WebRTC would otherwise send UDP around the proxy
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  ]
}

/** One Chromium process with its workspace contexts; the pool replaces it when it is spent. */
export class BrowserInstance {
  readonly browser: Browser
  readonly contexts: WorkspaceContexts
  readonly launchedAt = Date.now()
  renders = 0
  active = 0
  retiring = false
  crashed = false
  #closing = false
  #pid: number | undefined

  private constructor(browser: Browser, settings: LaunchSettings) {
    this.browser = browser
    this.contexts = new WorkspaceContexts(browser, {
      idlePages: settings.idlePages,
      maxPages: settings.maxPages,
      maxContexts: settings.maxContexts,
    })
  }

  static async launch(settings: LaunchSettings, onCrash: (instance: BrowserInstance) => void) {
    const { launch } = settings
    const browser = await chromium.launch({
      executablePath: launch.executablePath,
      args: chromiumArgs(settings),
      // Playwright adds --no-sandbox unless told the sandbox is wanted
      chromiumSandbox: launch.sandbox,
      // never the service's own environment: it holds the database URL and the keys
      env: launch.env,
      timeout: settings.timeoutMs,
      // the kernel's stop() closes the browser after draining; Playwright must not race it
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
    const instance = new BrowserInstance(browser, settings)
    browser.on('disconnected', () => {
      if (instance.#closing) return
      instance.crashed = true
      onCrash(instance)
    })
    // known up front, so a hung browser can still be killed at close
    await instance.pid().catch(() => undefined)
    return instance
  }

  get connected(): boolean {
    return !this.crashed && this.browser.isConnected()
  }

  /** A pooled page of the workspace's context, or a page in a new context of its own. */
  async lease(workspaceId: string, fresh: BrowserContextOptions | undefined): Promise<PageLease> {
    if (fresh) {
      const context = await this.browser.newContext({ ...BASE_CONTEXT_OPTIONS, ...fresh })
      try {
        return { pooled: await openPage(context), entry: undefined }
      } catch (err) {
        await context.close().catch(() => {})
        throw err
      }
    }
    const { entry, pooled } = await this.contexts.take(workspaceId)
    return { pooled, entry }
  }

  async release(lease: PageLease, reusable: boolean): Promise<void> {
    if (lease.entry) return this.contexts.give(lease.entry, lease.pooled, reusable && this.connected)
    await withTimeout(lease.pooled.page.context().close(), CLOSE_TIMEOUT_MS).catch(() => {})
  }

  /** Stops a page a render must not finish (deadline, cancel); its loan then ends unreusable. */
  async abort(lease: PageLease): Promise<void> {
    await closePage(lease.pooled)
  }

  async pid(): Promise<number | undefined> {
    if (this.#pid !== undefined) return this.#pid
    const session = await this.browser.newBrowserCDPSession()
    try {
      const info = (await session.send('SystemInfo.getProcessInfo')) as {
        processInfo: { type: string; id: number }[]
      }
      this.#pid = info.processInfo.find((p) => p.type === 'browser')?.id
      return this.#pid
    } finally {
      await session.detach().catch(() => {})
    }
  }

  async memoryMb(): Promise<number | undefined> {
    const pid = await this.pid().catch(() => undefined)
    return pid === undefined ? undefined : processTreeRssMb(pid)
  }

  async close(): Promise<void> {
    this.#closing = true
    await withTimeout(this.contexts.closeAll(), CLOSE_TIMEOUT_MS).catch(() => {})
    const closed = await withTimeout(this.browser.close(), CLOSE_TIMEOUT_MS).then(
      () => true,
      () => false,
    )
    if (!closed) {
      // a hung browser is killed rather than left behind
      const pid = this.#pid
      if (pid !== undefined) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
    }
  }
}
