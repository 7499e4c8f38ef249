import type { Browser, BrowserContext } from 'playwright-core'
import {
  BASE_CONTEXT_OPTIONS,
  cleanPage,
  closePage,
  openPage,
  PAGE_MAX_USES,
  type PooledPage,
} from './pooled-page.ts'

/** One workspace's context: it never holds a page of another workspace. */
export interface WorkspaceContext {
  readonly workspaceId: string
  readonly context: BrowserContext
  readonly idle: PooledPage[]
  /** renders on its pages plus pages being cleaned */
  active: number
  /** open pages: busy, being cleaned or idle */
  pages: number
  /** renders waiting for a page being cleaned (the page count is at its cap) */
  readonly waiters: ((pooled: PooledPage | undefined) => void)[]
}

interface Slot {
  ready: Promise<WorkspaceContext>
  value?: WorkspaceContext
  /** takes between asking for the context and counting as active: not to be evicted */
  reserved: number
}

/**
 * Browser contexts per workspace, least recently used first out, each with a few pages. A page
 * is cleaned after its render, off the render's slot, and only clean pages are handed out; a
 * context holds at most `maxPages` pages, so a render may wait for one being cleaned rather than
 * open another (a new page costs several times a cleaning).
 */
export class WorkspaceContexts {
  readonly #browser: Browser
  readonly #idlePages: number
  readonly #maxPages: number
  readonly #maxContexts: number
  // insertion order is recency: an entry is re-inserted on every use
  readonly #slots = new Map<string, Slot>()

  constructor(browser: Browser, options: { idlePages: number; maxPages: number; maxContexts: number }) {
    this.#browser = browser
    this.#idlePages = options.idlePages
    this.#maxPages = Math.max(1, options.maxPages)
    this.#maxContexts = options.maxContexts
  }

  get size(): number {
    return this.#slots.size
  }

  async take(workspaceId: string): Promise<{ entry: WorkspaceContext; pooled: PooledPage }> {
    const slot = this.#reserve(workspaceId)
    let entry: WorkspaceContext
    try {
      entry = await slot.ready
    } finally {
      slot.reserved--
    }
    entry.active++
    try {
      let pooled = entry.idle.pop()
      if (!pooled && entry.pages >= this.#maxPages)
        pooled = await new Promise<PooledPage | undefined>((resolve) => entry.waiters.push(resolve))
      if (!pooled) {
        entry.pages++
        pooled = await openPage(entry.context).catch((err: unknown) => {
          entry.pages--
          throw err
        })
      }
      pooled.uses++
      return { entry, pooled }
    } catch (err) {
      entry.active--
      throw err
    }
  }

  /** Cleaned, then to a waiting render or the idle list; a page that cannot be cleaned is closed. */
  async give(entry: WorkspaceContext, pooled: PooledPage, reusable: boolean): Promise<void> {
    let kept = false
    try {
      const wanted = entry.waiters.length > 0 || entry.idle.length < this.#idlePages
      const keep = reusable && pooled.uses < PAGE_MAX_USES && wanted
      kept = (await cleanPage(entry.context, pooled, keep)) && keep
    } finally {
      if (kept) {
        const waiter = entry.waiters.shift()
        if (waiter) waiter(pooled)
        else entry.idle.push(pooled)
      } else {
        entry.pages--
        void closePage(pooled)
        // a waiting render opens a page of its own instead
        entry.waiters.shift()?.(undefined)
      }
      entry.active--
      this.#evict()
    }
  }

  async closeAll(): Promise<void> {
    const slots = [...this.#slots.values()]
    this.#slots.clear()
    await Promise.allSettled(slots.map(async (slot) => (await slot.ready).context.close()))
  }

  /** The workspace's slot, most recent now and reserved (the caller unreserves it). */
  #reserve(workspaceId: string): Slot {
    let slot = this.#slots.get(workspaceId)
    if (slot) this.#slots.delete(workspaceId)
    else {
      const created: Slot = {
        reserved: 0,
        ready: this.#browser.newContext(BASE_CONTEXT_OPTIONS).then((context) => {
          created.value = { workspaceId, context, idle: [], active: 0, pages: 0, waiters: [] }
          return created.value
        }),
      }
      created.ready.catch(() => {
        if (this.#slots.get(workspaceId) === created) this.#slots.delete(workspaceId)
      })
      slot = created
    }
    this.#slots.set(workspaceId, slot)
    slot.reserved++
    this.#evict()
    return slot
  }

  /** Closes the least recently used idle contexts above the limit. */
  #evict(): void {
    let excess = this.#slots.size - this.#maxContexts
    for (const [workspaceId, slot] of this.#slots) {
      if (excess <= 0) return
      if (!slot.value || slot.value.active > 0 || slot.reserved > 0) continue
      this.#slots.delete(workspaceId)
      excess--
      void slot.value.context.close().catch(() => {})
    }
  }
}
