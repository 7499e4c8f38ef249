import type { FastifyReply, FastifyRequest } from 'fastify'
import { contentDisposition } from '../files/content-disposition.ts'
import { readStoredFile } from '../files/read-stored-file.ts'
import { storeAsPointer } from '../idempotency/idempotency-hooks.ts'
import { problemStatus } from '../kernel/problem-codes.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { Render } from './render.ts'
import type { RenderCompletion } from './render-completion.ts'
import type { RenderFileLinks } from './render-file-links.ts'
import type { RenderFiles } from './render-files.ts'
import { hostingOf } from './render-hosting.ts'
import type { RenderRepository } from './render-repository.ts'
import type { RenderService } from './render-service.ts'
import { fileView, renderView } from './render-view.ts'

const BINARY_LIMIT = 20 * 1000 * 1000
const BASE64_LIMIT = 10 * 1000 * 1000

export interface ResponderDeps {
  renderRepository: RenderRepository
  renderService: RenderService
  renderCompletion: RenderCompletion
  renderFileLinks: RenderFileLinks
  fileStore: FileStore
  renderFiles: RenderFiles
}

/** The render record with fresh signed URLs (or base64 bodies), as SPEC 2.4 and 4.2 say. */
export async function presentRender(deps: ResponderDeps, render: Render, withData = false) {
  const files = await deps.renderRepository.files(render.id)
  const { hosted } = hostingOf(render)
  const linked = hosted && render.status === 'succeeded' && render.request.delivery.type !== 'none'
  const views = []
  for (const file of files) {
    // a render that keeps no hosted copy still lists what it made, without URLs
    if (file.deleted_at && hosted) continue
    const extra: { url?: string; expires_at?: string; data?: string } = linked
      ? deps.renderFileLinks.link(render, file)
      : {}
    if (withData) {
      const bytes = await readStoredFile(deps.fileStore, file.storage_key)
      if (bytes) extra.data = bytes.toString('base64')
    }
    views.push(fileView(file, extra))
  }
  return renderView(render, views)
}

function failure(render: Render): ProblemError {
  const error = render.error ?? { code: 'render_failed', message: 'The render failed.' }
  const code = render.status === 'canceled' ? 'render_canceled' : error.code
  const known = new ProblemError(code as never, error.message)
  return new ProblemError(known.code, error.message, {
    // the request was valid; what failed was the render (e.g. a page outside the document): 422
    ...(problemStatus(known.code) === 400 ? { status: 422 } : {}),
    render_id: render.id,
    render_error: error,
    ...(render.result ? { result: render.result } : {}),
    ...(error.line !== undefined ? { line: error.line, column: error.column, excerpt: error.excerpt } : {}),
    ...(error.errors ? { errors: error.errors } : {}),
  })
}

/**
 * After a render is created: 202 for async; for sync, wait up to the plan's timeout and answer
 * the finished render in its delivery form, 408 (cancel) or 202 (continue) on timeout.
 */
export async function respondToRender(
  deps: ResponderDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  created: Render,
  syncTimeoutSeconds: number,
) {
  const location = `/v1/renders/${created.id}`
  if (created.mode === 'async') {
    return reply
      .code(202)
      .header('Location', location)
      .send(await presentRender(deps, created))
  }
  const finished = await deps.renderCompletion.wait(created.id, syncTimeoutSeconds * 1000, async () => {
    const now = await deps.renderRepository.getById(created.id)
    return now !== undefined && now.status !== 'queued' && now.status !== 'processing'
  })
  if (!finished) {
    if (created.request.timeout_behavior === 'cancel') {
      await deps.renderRepository.transition(
        created.id,
        ['queued', 'processing'],
        'canceled',
        new Date().toISOString(),
        {
          code: 'render_timeout',
          message: `The render did not finish within the sync timeout of ${syncTimeoutSeconds} s.`,
        },
      )
      throw new ProblemError(
        'render_timeout',
        `The render did not finish within ${syncTimeoutSeconds} s and was canceled.`,
        {
          render_id: created.id,
        },
      )
    }
    const current = (await deps.renderRepository.getById(created.id)) ?? created
    return reply
      .code(202)
      .header('Location', location)
      .send(await presentRender(deps, current))
  }
  // the record a worker of this process just wrote, links signed: answered without a read
  const { record } = finished
  if (
    record?.status === 'succeeded' &&
    created.request.delivery.type === 'url' &&
    hostingOf(created).hosted
  ) {
    return reply.code(200).header('Location', location).send(record)
  }
  const render = await deps.renderService.get(request.auth!, created.id)
  if (render.status !== 'succeeded') throw failure(render)
  const delivery = render.request.delivery.type
  if (delivery === 'binary') return sendBinary(deps, reply, render)
  if (delivery === 'base64') {
    const total = (await deps.renderRepository.files(render.id)).reduce((n, f) => n + f.size, 0)
    if (total > BASE64_LIMIT) {
      await releaseUnhosted(deps, render)
      throw new ProblemError(
        'output_too_large',
        `The output is ${total} bytes; base64 delivery carries at most 10 MB.`,
        {
          render_id: render.id,
        },
      )
    }
    const body = await presentRender(deps, render, true)
    await releaseUnhosted(deps, render)
    // an idempotent replay reads the files again: the stored answer keeps no bytes
    const withoutData = { ...body, files: body.files.map(({ data: _data, ...file }) => file) }
    storeAsPointer(
      reply,
      { render_id: render.id, delivery: 'base64' },
      Buffer.from(JSON.stringify(withoutData)),
    )
    return reply.code(200).send(body)
  }
  return reply
    .code(200)
    .header('Location', location)
    .send(await presentRender(deps, render))
}

async function sendBinary(deps: ResponderDeps, reply: FastifyReply, render: Render) {
  const [file, ...more] = await deps.renderRepository.files(render.id)
  if (!file || more.length > 0) {
    throw new ProblemError('validation_error', 'binary delivery needs exactly one output file.', {
      render_id: render.id,
    })
  }
  if (file.size > BINARY_LIMIT) {
    await releaseUnhosted(deps, render)
    throw new ProblemError(
      'output_too_large',
      `The output is ${file.size} bytes; binary delivery carries at most 20 MB.`,
      {
        render_id: render.id,
      },
    )
  }
  const bytes = await readStoredFile(deps.fileStore, file.storage_key)
  if (!bytes)
    throw new ProblemError('file_expired', 'The file is no longer hosted.', { render_id: render.id })
  await releaseUnhosted(deps, render)
  // an idempotent replay reads the file again: the stored answer keeps no bytes
  storeAsPointer(reply, { render_id: render.id, delivery: 'binary' }, Buffer.alloc(0))
  return reply
    .code(200)
    .header('Content-Type', file.content_type)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', contentDisposition('inline', file.filename))
    .header('X-Render-Id', render.id)
    .header('Location', `/v1/renders/${render.id}`)
    .send(bytes)
}

/** Once the response holds the bytes (or cannot carry them), a render that keeps no hosted copy drops it. */
async function releaseUnhosted(deps: ResponderDeps, render: Render): Promise<void> {
  if (!hostingOf(render).hosted) await deps.renderFiles.release(render)
}
