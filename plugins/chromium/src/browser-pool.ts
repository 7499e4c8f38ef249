import { constants } from 'node:fs'
import { access } from 'node:fs/promises'
import type { HealthReport, OutboundGuardApi, PluginLogger } from '@docsvc/core/sdk'
import { ProblemError } from '@docsvc/core/sdk'
import type { BrowserContextOptions } from 'playwright-core'
import { BrowserInstance, type PageLease } from './browser-instance.ts'
import type { ChromiumConfig } from './chromium-config.ts'
import {
  type ChromiumLaunch,
  dataDirExposure,
  isSandboxFailure,
  prepareChromiumLaunch,
  sandboxOffWarning,
  sandboxUnavailable,
} from './chromium-user.ts'
import { GuardProxy } from './guard-proxy.ts'
import { withTimeout } from './pooled-page.ts'
import { canceled, RenderSlots } from './render-slots.ts'

export interface BrowserPoolOptions {
  chromiumPath: string
  /** DOCSVC_DATA_DIR: Chromium's own folders are kept out of it */
  dataDir?: string
  config: ChromiumConfig
  guard: OutboundGuardApi
  log: PluginLogger
  /** how often the browser's memory is measured (default 10 s) */
  memoryCheckMs?: number
}

export interface LeaseRequest {
  workspaceId: string
  /** a second context of the workspace for renders that leave a mark on it (transparent captures) */
  variant?: 'transparent' | undefined
  /** options of a context of its own (URL inputs); without them, a warm page of the workspace */
  fresh?: BrowserContextOptions | undefined
  signal: AbortSignal
  /** epoch ms */
  deadline: number
}

/** Where a render is, so that running out of time while loading reads as wait_timeout. */
export interface RenderPhase {
  loading: boolean
}

const MEMORY_CHECK_MS = 10_000
const SETTLE_AFTER_ABORT_MS = 5_000
const STOP_DRAIN_MS = 5_000

/**
 * One Chromium per worker process (DESIGN.md §6-§7): bounded concurrency, pages reused inside a
 * workspace's context, and the browser replaced after N renders, past a memory threshold or
 * after a crash. Every request the browser makes goes through the guard proxy.
 */
export class BrowserPool {
  readonly proxy: GuardProxy
  readonly guard: OutboundGuardApi
  readonly config: ChromiumConfig
  readonly #options: BrowserPoolOptions
  readonly #slots: RenderSlots
  #proxyPort: Promise<number> | undefined
  #launchPlan: Promise<ChromiumLaunch> | undefined
  #current: BrowserInstance | undefined
  #launching: Promise<BrowserInstance> | undefined
  readonly #draining = new Set<BrowserInstance>()
  #stopped = false
  #lastMemoryCheck = Date.now()
  #restarts = 0
  #launchError: string | undefined

  constructor(options: BrowserPoolOptions) {
    this.#options = options
    this.config = options.config
    this.guard = options.guard
    this.proxy = new GuardProxy(options.guard)
    this.#slots = new RenderSlots(options.config.concurrency)
  }

  /**
   * Fails fast when Chromium is missing, then warms a browser in the background so boot stays
   * quick; the first render waits for it (and renders also start one when start() never ran).
   */
  async start(): Promise<void> {
    this.#stopped = false
    const path = this.#options.chromiumPath
    await access(path, constants.X_OK).catch(() => {
      throw new Error(`Chromium is not executable at ${path} (set DOCSVC_CHROMIUM_PATH)`)
    })
    // who Chromium runs as and whether its sandbox can work is settled here: start fails
    const plan = await this.#plan()
    if (!plan.sandbox) this.#options.log.warn(sandboxOffWarning(plan.uid))
    const exposure = await dataDirExposure(plan, this.#options.dataDir)
    if (exposure) this.#options.log.warn(exposure)
    void this.#instance().catch(() => {})
  }

  /** How browsers are launched; made once (a pool used without start() makes it at launch). */
  #plan(): Promise<ChromiumLaunch> {
    this.#launchPlan ??= prepareChromiumLaunch({
      chromiumPath: this.#options.chromiumPath,
      config: this.config,
      dataDir: this.#options.dataDir,
    })
    // a failed plan is not kept: the next start or launch tries again
    this.#launchPlan.catch(() => {
      this.#launchPlan = undefined
    })
    return this.#launchPlan
  }

  /** Lets renders in flight finish (a few seconds at most), then closes browsers and proxy. */
  async stop(): Promise<void> {
    this.#stopped = true
    for (const until = Date.now() + STOP_DRAIN_MS; this.#slots.busy > 0 && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 50))
    const instances = [this.#current, ...this.#draining]
    const launching = this.#launching
    this.#current = undefined
    this.#draining.clear()
    if (launching) instances.push(await launching.catch(() => undefined))
    await Promise.allSettled(instances.map((i) => i?.close()))
    if (this.#proxyPort) {
      this.#proxyPort = undefined
      await this.proxy.close()
    }
    const plan = this.#launchPlan
    this.#launchPlan = undefined
    await plan?.then((p) => p.dispose()).catch(() => {})
  }

  health(): HealthReport {
    const current = this.#current
    if (current?.connected) {
      const detail = `${this.#slots.busy} rendering, ${this.#slots.waiting} waiting, ${current.renders} renders on this browser, ${this.#restarts} restarts`
      return { ok: true, detail }
    }
    if (this.#launching) return { ok: true, detail: 'the browser is starting' }
    if (!this.#proxyPort) return { ok: true, detail: 'the browser starts with the first render' }
    return { ok: false, detail: this.#launchError ?? 'no browser is running' }
  }

  /** The browser's process id (tests kill it to prove a crash is survived). */
  async browserPid(): Promise<number | undefined> {
    return (await this.#instance()).pid()
  }

  /** Runs `work` on a page of the workspace within the render's deadline and cancel signal. */
  async withPage<T>(request: LeaseRequest, work: (lease: PageLease, phase: RenderPhase) => Promise<T>) {
    const releaseSlot = await this.#slots.acquire(request.signal, request.deadline)
    try {
      const instance = await this.#instance()
      instance.active++
      instance.renders++
      const done = () => {
        instance.active--
        this.#afterRender(instance)
      }
      try {
        const { value, cleaning } = await this.#run(instance, request, work)
        // the slot is free while the page is cleaned (~35 ms for about:blank); only clean pages
        // are handed out again, so the next render takes another idle page meanwhile
        void cleaning.finally(done)
        return value
      } catch (err) {
        done()
        throw err
      }
    } finally {
      releaseSlot()
    }
  }

  async #run<T>(
    instance: BrowserInstance,
    request: LeaseRequest,
    work: (lease: PageLease, phase: RenderPhase) => Promise<T>,
  ): Promise<{ value: T; cleaning: Promise<void> }> {
    const phase: RenderPhase = { loading: true }
    let stopped: 'deadline' | 'canceled' | undefined
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    const limit = new Promise<never>((_, reject) => {
      const stop = (why: 'deadline' | 'canceled') => {
        stopped = why
        reject(new Error(why))
      }
      timer = setTimeout(() => stop('deadline'), Math.max(0, request.deadline - Date.now()))
      onAbort = () => stop('canceled')
      request.signal.addEventListener('abort', onAbort, { once: true })
      if (request.signal.aborted) stop('canceled')
    })
    limit.catch(() => {})
    let lease: PageLease | undefined
    let running: Promise<T> | undefined
    try {
      const key = request.variant ? `${request.workspaceId} ${request.variant}` : request.workspaceId
      const leasing = instance.lease(key, request.fresh)
      // a page that arrives after the render gave up goes straight back
      leasing.then((l) => (stopped ? instance.release(l, true) : undefined)).catch(() => {})
      lease = await Promise.race([leasing, limit])
      running = work(lease, phase)
      running.catch(() => {})
      const value = await Promise.race([running, limit])
      return { value, cleaning: instance.release(lease, true).catch(() => {}) }
    } catch (err) {
      if (lease) {
        if (stopped) {
          // closing the page makes whatever Playwright call is pending fail fast
          await instance.abort(lease)
          if (running) await withTimeout(running, SETTLE_AFTER_ABORT_MS).catch(() => {})
        }
        await instance.release(lease, false)
      }
      if (stopped === 'canceled') throw canceled()
      if (stopped === 'deadline') throw limitReached(phase)
      throw failure(err, instance, this.#options.log)
    } finally {
      clearTimeout(timer)
      if (onAbort) request.signal.removeEventListener('abort', onAbort)
    }
  }

  async #instance(): Promise<BrowserInstance> {
    if (this.#stopped) throw new ProblemError('service_unavailable', 'the browser pool is stopping')
    const current = this.#current
    if (current?.connected && !current.retiring) return current
    this.#launching ??= this.#launch().finally(() => {
      this.#launching = undefined
    })
    return this.#launching
  }

  async #launch(): Promise<BrowserInstance> {
    this.#proxyPort ??= this.proxy.listen()
    const { config, log } = this.#options
    let plan: ChromiumLaunch | undefined
    try {
      plan = await this.#plan()
      const instance = await BrowserInstance.launch(
        {
          launch: plan,
          proxyPort: await this.#proxyPort,
          timeoutMs: config.launchTimeoutMs,
          pageHeapMb: config.pageHeapMb,
          idlePages: config.idlePagesPerWorkspace,
          // one page more than can render at once: one is cleaned while the others render
          maxPages: Math.max(config.idlePagesPerWorkspace, config.concurrency + 1),
          maxContexts: config.maxWorkspaceContexts,
        },
        (crashed) => this.#onCrash(crashed),
      )
      if (this.#stopped) {
        await instance.close()
        throw new ProblemError('service_unavailable', 'the browser pool is stopping')
      }
      this.#current = instance
      this.#launchError = undefined
      log.info('chromium started', { version: instance.browser.version() })
      return instance
    } catch (err) {
      if (err instanceof ProblemError) throw err
      const message = (err as Error).message
      this.#launchError =
        plan && isSandboxFailure(message)
          ? sandboxUnavailable(plan.uid, 'Chromium refused to start without it')
          : `the browser could not start: ${firstLine(err)}`
      // the operator's to act on (log, health); the tenant learns only that it failed
      log.error(`chromium did not start: ${this.#launchError}`, { error: message })
      throw new ProblemError('render_failed', 'the browser could not start; the failure is logged')
    }
  }

  #onCrash(instance: BrowserInstance): void {
    this.#options.log.warn('chromium disconnected; the next render starts a new browser', {
      renders: instance.renders,
    })
    this.#retire(instance)
  }

  /** New renders go to a new browser; this one closes when its last render is done. */
  #retire(instance: BrowserInstance, reason?: string): void {
    if (instance.retiring) return
    instance.retiring = true
    this.#restarts++
    if (reason) this.#options.log.info(`chromium is replaced: ${reason}`)
    if (this.#current === instance) this.#current = undefined
    if (instance.active === 0) void instance.close()
    else this.#draining.add(instance)
    if (!this.#stopped) void this.#instance().catch(() => {})
  }

  #afterRender(instance: BrowserInstance): void {
    if (instance.retiring) {
      if (instance.active === 0 && this.#draining.delete(instance)) void instance.close()
      return
    }
    const { restartAfterRenders, maxMemoryMb } = this.#options.config
    if (instance.renders >= restartAfterRenders) {
      this.#retire(instance, `${instance.renders} renders`)
      return
    }
    if (Date.now() - this.#lastMemoryCheck < (this.#options.memoryCheckMs ?? MEMORY_CHECK_MS)) return
    this.#lastMemoryCheck = Date.now()
    void instance.memoryMb().then((mb) => {
      if (mb !== undefined && mb > maxMemoryMb) this.#retire(instance, `${Math.round(mb)} MiB in use`)
    })
  }
}

function limitReached(phase: RenderPhase): ProblemError {
  return phase.loading
    ? new ProblemError('wait_timeout', 'the page did not finish loading within the time limit of the render')
    : new ProblemError('render_failed', 'the render ran past its time limit')
}

function failure(err: unknown, instance: BrowserInstance, log: PluginLogger): ProblemError {
  if (err instanceof ProblemError) return err
  if (instance.crashed)
    return new ProblemError(
      'render_failed',
      'the browser crashed during the render; the next render gets a new one',
    )
  // the renderer of this page died (most often its scripts ran out of their heap); the browser
  // and its other pages live on
  if (/\b(Page|Target) crashed\b/.test(firstLine(err)))
    return new ProblemError(
      'render_failed',
      "the page crashed: its scripts used more memory than a page may have, or broke Chromium's renderer",
    )
  if (!instance.connected)
    return new ProblemError('render_failed', 'the browser was closed during the render')
  // Playwright's own words name internal addresses and protocol details: for our log, not the tenant
  log.warn('render failed in the browser', { error: firstLine(err) })
  return new ProblemError('render_failed', 'the browser failed during the render; the failure is logged')
}

export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return (text.split('\n')[0] ?? text).slice(0, 500)
}
