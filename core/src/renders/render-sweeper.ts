import type { Logger } from 'pino'
import type { EventOutbox } from '../events/event-outbox.ts'
import type { ScratchDirs } from '../files/scratch-dirs.ts'
import type { Config } from '../kernel/config.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { QueueBackend } from '../sdk/queue-contracts.ts'
import type { WorkspaceService } from '../workspaces/workspace-service.ts'
import type { Render } from './render.ts'
import type { RenderCompletion } from './render-completion.ts'
import { renderEventWriter } from './render-events.ts'
import type { RenderFileLinks } from './render-file-links.ts'
import type { RenderFiles } from './render-files.ts'
import { discardLargeBodies } from './render-input-bodies.ts'
import { RENDER_JOB, renderJobOptions } from './render-jobs.ts'
import type { RenderRepository } from './render-repository.ts'

const DAY_MS = 24 * 3600 * 1000
const QUEUED_LOST_AFTER_MS = DAY_MS
/** a render's job is sent milliseconds after its row is stored: past this, the send never happened */
const WITHOUT_JOB_AFTER_MS = 60_000

const LOST = {
  code: 'render_lost',
  message: 'The platform lost this render (its job expired or its worker stopped); nothing was billed.',
}

/**
 * Worker housekeeping: renders whose job the platform lost end `failed` with `render_lost`
 * (nothing billed), async renders whose job was never sent (the API stopped between storing the
 * render and sending its job) get it, hosted files past their retention are deleted (`expired`),
 * render records past `renderRecordRetentionDays` are deleted with whatever they still stored,
 * and scratch folders a stopped process left behind go.
 */
export class RenderSweeper {
  readonly #renders: RenderRepository
  readonly #files: RenderFiles
  readonly #completion: RenderCompletion
  readonly #config: Config
  readonly #log: Logger
  readonly #store: FileStore
  readonly #scratch: ScratchDirs
  readonly #queue: QueueBackend
  readonly #workspaces: Pick<WorkspaceService, 'planOf'>
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
    queue: QueueBackend
    workspaceService: Pick<WorkspaceService, 'planOf'>
  }) {
    this.#queue = deps.queue
    this.#workspaces = deps.workspaceService
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

  async sweep(now = new Date()): Promise<{ lost: number; expired: number; resent: number; deleted: number }> {
    let lost = 0
    // a processing render outlives two full attempts only when its worker is gone
    const processingCutoff = new Date(
      now.getTime() - (this.#config.renderTimeoutSeconds + 30) * 2 * 1000 - 60_000,
    )
    for (const render of await this.#renders.stale(processingCutoff.toISOString(), 100)) {
      const queuedTooLong = Date.parse(render.created_at) < now.getTime() - QUEUED_LOST_AFTER_MS
      if (render.status === 'queued' && !queuedTooLong) continue
      if (await this.#lose(render, now)) lost++
    }
    let resent = 0
    const withoutJobBefore = new Date(now.getTime() - WITHOUT_JOB_AFTER_MS).toISOString()
    for (const render of await this.#renders.withoutJob(withoutJobBefore, 100)) {
      if (await this.#resend(render)) resent++
      else if (await this.#lose(render, now)) lost++
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
    return { lost, expired, resent, deleted }
  }

  /** Fails a render the platform lost: `render_lost`, nothing billed, render.failed sent. */
  async #lose(render: Render, now: Date): Promise<boolean> {
    const at = now.toISOString()
    const lostRender: Render = { ...render, status: 'failed', error: LOST, finished_at: at, updated_at: at }
    const moved = await this.#renders.transition(
      render.id,
      ['queued', 'processing'],
      'failed',
      at,
      LOST,
      renderEventWriter(this.#events, 'render.failed', lostRender, []),
    )
    if (!moved) return false
    await discardLargeBodies(this.#store, render)
    this.#completion.notify(render.id)
    return true
  }

  /**
   * Sends the job of a render stored without one. An async render is simply late; a sync one
   * had a client waiting on the process that stopped, so it is not run for no one (false).
   * Its job id follows from the render's: a job that was sent after all is not sent twice.
   */
  async #resend(render: Render): Promise<boolean> {
    if (render.mode === 'sync') return false
    const plan = await this.#workspaces.planOf(render.workspace_id)
    if (!plan) return false
    const jobId = await this.#queue.send(
      RENDER_JOB,
      { renderId: render.id },
      renderJobOptions(render, plan, this.#config),
    )
    await this.#renders.setJob(render.id, jobId)
    this.#log.warn({ render_id: render.id }, 'render stored without its job: job sent')
    return true
  }
}
