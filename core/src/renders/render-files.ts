import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { EventOutbox } from '../events/event-outbox.ts'
import { sendStoredFile } from '../files/file-response.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { Render } from './render.ts'
import { renderEventWriter } from './render-events.ts'
import type { RenderFileLinks } from './render-file-links.ts'
import { hostingOf } from './render-hosting.ts'
import type { RenderRepository } from './render-repository.ts'
import type { RenderService } from './render-service.ts'

/** Hosted files of renders: download links, streaming, and purging (SPEC 4.2, Part 3). */
export class RenderFiles {
  readonly #renders: RenderRepository
  readonly #service: RenderService
  readonly #store: FileStore
  readonly #links: RenderFileLinks
  readonly #events: { eventOutbox: EventOutbox; renderFileLinks: RenderFileLinks }

  constructor(deps: {
    renderRepository: RenderRepository
    renderService: RenderService
    fileStore: FileStore
    renderFileLinks: RenderFileLinks
    eventOutbox: EventOutbox
  }) {
    this.#events = { eventOutbox: deps.eventOutbox, renderFileLinks: deps.renderFileLinks }
    this.#renders = deps.renderRepository
    this.#service = deps.renderService
    this.#store = deps.fileStore
    this.#links = deps.renderFileLinks
  }

  /** Deletes the hosted copies of a finished render; a succeeded render becomes `expired`. */
  async purge(auth: AuthContext, renderId: string, now = new Date()): Promise<Render> {
    const render = await this.#service.get(auth, renderId)
    if (render.status === 'queued' || render.status === 'processing') {
      throw new ProblemError(
        'conflict',
        `Render ${renderId} is still running; its files can be deleted once it finished.`,
      )
    }
    // SPEC 3: purging a zero-retention render drops its transient copies; its status stays
    if (hostingOf(render).zeroRetention) await this.release(render, now)
    else await this.expire(render, now)
    return this.#service.get(auth, renderId)
  }

  /** End of the files' time: hosted copies expire (render.expired); transient ones just go. */
  async endRetention(render: Render, now = new Date()): Promise<boolean> {
    if (hostingOf(render).hosted) return this.expire(render, now, true)
    await this.release(render, now)
    return false
  }

  /** Deletes the copy of a render that keeps no hosted one, once delivered; the status stays. */
  async release(render: Render, now = new Date()): Promise<void> {
    for (const file of await this.#renders.files(render.id)) {
      if (!file.deleted_at) await this.#store.delete(file.storage_key)
    }
    await this.#renders.markTransientFilesGone(render.id, now.toISOString())
  }

  /** Shared by purge and the retention sweeper: delete every hosted copy, then mark the render. */
  async expire(render: Render, now = new Date(), emitExpired = false): Promise<boolean> {
    for (const file of await this.#renders.files(render.id)) {
      if (!file.deleted_at) await this.#store.delete(file.storage_key)
    }
    await this.#renders.markFilesDeleted(render.id, now.toISOString())
    const at = now.toISOString()
    const expired: Render = { ...render, status: 'expired', updated_at: at }
    return this.#renders.transition(
      render.id,
      ['succeeded'],
      'expired',
      at,
      undefined,
      emitExpired ? renderEventWriter(this.#events, 'render.expired', expired, []) : undefined,
    )
  }

  async serve(
    request: FastifyRequest,
    params: { render_id: string; file_id: string },
    query: { download?: boolean; inline?: boolean },
    reply: FastifyReply,
  ) {
    const auth = request.auth!
    const render = await this.#service.get(auth, params.render_id)
    if (hostingOf(render).zeroRetention) {
      throw new ProblemError(
        'not_found',
        `Render ${render.id} has zero retention: its files are never served.`,
      )
    }
    const file = (await this.#renders.files(render.id)).find((f) => f.id === params.file_id)
    if (!file) throw new ProblemError('not_found', `Render ${render.id} has no file ${params.file_id}.`)
    if (file.deleted_at || render.status === 'expired') {
      throw new ProblemError(
        'file_expired',
        `File ${file.id} was deleted at the end of its retention or purged.`,
      )
    }
    if (query.inline) {
      return sendStoredFile(request, reply, this.#store, {
        key: file.storage_key,
        contentType: file.content_type,
        filename: file.filename,
        disposition: query.download ? 'attachment' : 'inline',
        maxAgeSeconds: 0,
      })
    }
    const { url } = this.#links.link(render, file, query.download === true)
    return reply.code(302).header('Location', url).send()
  }
}
