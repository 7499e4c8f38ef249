import type { Logger } from 'pino'
import type { EventOutbox } from '../events/event-outbox.ts'
import type { ScratchDirs } from '../files/scratch-dirs.ts'
import type { Config } from '../kernel/config.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { Render } from './render.ts'
import type { RenderCompletion } from './render-completion.ts'
import { renderEventWriter } from './render-events.ts'
import type { RenderFileLinks } from './render-file-links.ts'
import type { RenderFiles } from './render-files.ts'
import { discardLargeBodies } from './render-input-bodies.ts'
import type { RenderRepository } from './render-repository.ts'

const DAY_MS = 24 * 3600 * 1000
const QUEUED_LOST_AFTER_MS = DAY_MS

/**
 * Worker housekeeping: renders whose job the platform lost end `failed` with `render_lost`
 * (nothing billed), hosted files past their retention are deleted (`expired`), render records
 * past `renderRecordRetentionDays` are deleted with whatever they still stored, and scratch
 * folders a stopped process left behind go.
 */
export class RenderSweeper {
  readonly #renders: RenderRepository
  readonly #files: RenderFiles
  readonly #completion: RenderCompletion
  readonly #config: Config
  readonly #log: Logger
  readonly #store: FileStore
  readonly #scratch: ScratchDirs
  readonly #events: { eventOutbox: EventOutbox; renderFileLinks: RenderFileLinks }
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> = Promise.resolve()

  constructor(deps: {
    renderRepository: RenderRepository
    renderFiles: RenderFiles
    renderCompletion: RenderCompletion
    config: Config
    log: Logger
    eventOutbox: EventOutbox
    renderFileLinks: RenderFileLinks
    fileStore: FileStore
    scratchDirs: ScratchDirs
  }) {
    this.#store = deps.fileStore
    this.#scratch = deps.scratchDirs
    this.#events = { eventOutbox: deps.eventOutbox, renderFileLinks: deps.renderFileLinks }
    this.#renders = deps.renderRepository
    this.#files = deps.renderFiles
    this.#completion = deps.renderCompletion
    this.#config = deps.config
    this.#log = deps.log
  }

  start(intervalMs = 30_000): void {
    this.#timer = setInterval(() => {
      this.#running = this.#running
        .then(async () => {
          await this.sweep()
        })
        .catch((err) => this.#log.error({ err }, 'render sweep failed'))
    }, intervalMs)
    this.#timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer)
    await this.#running
  }

  async sweep(now = new Date()): Promise<{ lost: number; expired: number; deleted: number }> {
    let lost = 0
    // a processing render outlives two full attempts only when its worker is gone
    const processingCutoff = new Date(
      now.getTime() - (this.#config.renderTimeoutSeconds + 30) * 2 * 1000 - 60_000,
    )
    for (const render of await this.#renders.stale(processingCutoff.toISOString(), 100)) {
      const queuedTooLong = Date.parse(render.created_at) < now.getTime() - QUEUED_LOST_AFTER_MS
      if (render.status === 'queued' && !queuedTooLong) continue
      const at = now.toISOString()
      const error = {
        code: 'render_lost',
        message: 'The platform lost this render (its job expired or its worker stopped); nothing was billed.',
      }
      const lostRender: Render = { ...render, status: 'failed', error, finished_at: at, updated_at: at }
      const moved = await this.#renders.transition(
        render.id,
        ['queued', 'processing'],
        'failed',
        at,
        error,
        renderEventWriter(this.#events, 'render.failed', lostRender, []),
      )
      if (moved) {
        await discardLargeBodies(this.#store, render)
        lost++
        this.#completion.notify(render.id)
      }
    }
    let expired = 0
    for (const render of await this.#renders.expiring(now.toISOString(), 100)) {
      // SPEC 3: the end of retention (not a purge) sends render.expired
      if (await this.#files.endRetention(render, now)) {
        expired++
      }
    }
    let deleted = 0
    const recordCutoff = new Date(now.getTime() - this.#config.renderRecordRetentionDays * DAY_MS)
    for (const render of await this.#renders.pastRecordRetention(recordCutoff.toISOString(), 100)) {
      for (const file of await this.#renders.files(render.id)) {
        if (!file.deleted_at) await this.#store.delete(file.storage_key)
      }
      await discardLargeBodies(this.#store, render)
      await this.#renders.deleteRecord(render.id)
      deleted++
    }
    // scratch folders of renders whose process stopped before it could remove them
    await this.#scratch.sweep(now.getTime())
    return { lost, expired, deleted }
  }
}
