import { readStoredFile, readStoredFiles } from '../files/read-stored-file.ts'
import type { Config } from '../kernel/config.ts'
import { mapWithLimit } from '../kernel/map-with-limit.ts'
import type { FieldProblem } from '../kernel/problem-error.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import type { RenderFile } from '../renders/render.ts'
import { renderNotFound } from '../renders/render-not-found.ts'
import type { RenderService } from '../renders/render-service.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { GuardedFetch } from '../sdk/render-contracts.ts'
import type { Upload } from '../uploads/upload.ts'
import { type UploadService, uploadNotFound } from '../uploads/upload-service.ts'
import type { WorkspaceScope } from '../workspaces/workspace-scope.ts'

/** SPEC 2.16 PdfSourceSpec: exactly one of `url`, `render_id` (+ `file_id`), `upload_id`, `data_uri`. */
export interface PdfSourceSpec {
  url?: string
  render_id?: string
  file_id?: string
  upload_id?: string
  data_uri?: string
}

export interface ResolvedSource {
  bytes: Buffer
  /** a file name for bookmarks and logs */
  name: string
  /** where the bytes lie on this worker's disk, when the store keeps them here */
  path?: string
}

/** Whose sources these are: a render_id or upload_id is looked up in this workspace and mode only. */
export type SourceOwner = WorkspaceScope

const KINDS = ['url', 'render_id', 'upload_id', 'data_uri'] as const
/** A source is at most as large as an upload (SPEC 8). */
export const MAX_SOURCE_BYTES = 50 * 1000 * 1000
const FETCH_TIMEOUT_MS = 30_000
const RESOLVE_CONCURRENCY = 16
const DATA_URI =
  /^data:(application\/pdf|application\/octet-stream)?(;[^,;]+=[^,;]*)*;base64,([A-Za-z0-9+/=\s]*)$/

/** The shape rules a schema cannot say: exactly one kind, `file_id` only with `render_id`. */
export function sourceShapeProblems(spec: PdfSourceSpec, at: string): FieldProblem[] {
  const given = KINDS.filter((k) => spec[k] !== undefined && spec[k] !== null)
  if (given.length !== 1) {
    const message =
      given.length === 0
        ? 'give one of url, render_id, upload_id or data_uri'
        : `give only one of ${given.join(', ')}`
    return [{ path: at, code: 'one_of', message }]
  }
  if (spec.file_id != null && spec.render_id == null) {
    return [{ path: `${at}/file_id`, code: 'requires', message: 'file_id goes with render_id' }]
  }
  if (spec.data_uri != null && !DATA_URI.test(spec.data_uri)) {
    return [
      { path: `${at}/data_uri`, code: 'invalid', message: 'must be data:application/pdf;base64,<base64>' },
    ]
  }
  return []
}

export interface PdfSourceDeps {
  config: Pick<Config, 'mergeMaxSourceBytes'>
  renderService: Pick<RenderService, 'withFiles'>
  uploadService: UploadService
  fileStore: FileStore
  outboundGuard: OutboundGuard
}

/** Fetches the PDF sources of a tool render (the worker side). */
export class PdfSources {
  readonly #d: PdfSourceDeps

  constructor(deps: PdfSourceDeps) {
    this.#d = deps
  }

  /**
   * Checks at creation what can be checked without fetching: the render or upload exists in the
   * caller's workspace and mode (404 otherwise), a URL passes the outbound guard (422).
   */
  async precheck(owner: SourceOwner, specs: PdfSourceSpec[]): Promise<void> {
    const uploads = await this.#uploads(owner, specs)
    // the sizes known before fetching: a merge over the total is refused before a render is made
    let known = 0
    for (const spec of specs) {
      // a malformed spec is answered by the request checks with every problem at once
      if (sourceShapeProblems(spec, '').length > 0) continue
      if (spec.upload_id != null) known += this.#upload(uploads, spec.upload_id).size
      else if (spec.render_id != null)
        known += (await this.#renderFile(owner, spec.render_id, spec.file_id)).size
      else if (spec.url != null) await this.#d.outboundGuard.checkUrl(spec.url)
      else if (spec.data_uri != null)
        known += Math.floor(((spec.data_uri.length - spec.data_uri.indexOf(',') - 1) * 3) / 4)
    }
    this.#checkTotal(known)
  }

  /** SPEC 8 bounds each source (50 MB) and their number (200); this bounds their sum. */
  #checkTotal(bytes: number): void {
    const limit = this.#d.config.mergeMaxSourceBytes
    if (bytes <= limit) return
    const message = `the sources add up to more than ${limit} bytes, the most one PDF tool render takes`
    throw new ProblemError('payload_too_large', `${message[0]!.toUpperCase()}${message.slice(1)}.`, {
      errors: [{ path: '/sources', code: 'too_large', message }],
    })
  }

  /** The bytes of every source, in order; each must start like a PDF (422 invalid_pdf_source). */
  async resolve(owner: SourceOwner, specs: PdfSourceSpec[], fetch: GuardedFetch): Promise<ResolvedSource[]> {
    const uploads = await this.#uploads(owner, specs)
    // a merge names up to 200: the uploads read in one batch, the rest fetched a few at a time
    const keys = [...uploads.values()].map((u) => u.storage_key)
    const read = await readStoredFiles(this.#d.fileStore, keys)
    const uploaded = new Map(keys.map((key, i) => [key, read[i]]))
    // URLs are sized only once fetched: the total is checked as each source arrives
    let total = 0
    return mapWithLimit(specs, RESOLVE_CONCURRENCY, async (spec, i) => {
      const label = specs.length > 1 ? `source ${i + 1}` : 'the source'
      const source = await this.#resolveOne(owner, spec, i, { fetch, uploads, uploaded, label })
      total += source.bytes.length
      this.#checkTotal(total)
      if (!source.bytes.subarray(0, 1024).includes('%PDF-')) {
        throw new ProblemError(
          'invalid_pdf_source',
          source.bytes.length === 0 ? `${label} is empty.` : `${label} is not a PDF (no %PDF- header).`,
        )
      }
      return source
    })
  }

  // the uploads a request names, looked up in one query
  #uploads(owner: SourceOwner, specs: PdfSourceSpec[]): Promise<Map<string, Upload>> {
    const ids = specs.flatMap((s) => (typeof s.upload_id === 'string' ? [s.upload_id] : []))
    return this.#d.uploadService.liveMany(owner, ids)
  }

  #upload(uploads: Map<string, Upload>, id: string): Upload {
    const upload = uploads.get(id)
    if (!upload) throw uploadNotFound(id)
    return upload
  }

  async #resolveOne(
    owner: SourceOwner,
    spec: PdfSourceSpec,
    index: number,
    {
      fetch,
      uploads,
      uploaded,
      label,
    }: {
      fetch: GuardedFetch
      uploads: Map<string, Upload>
      uploaded: Map<string, Buffer | undefined>
      label: string
    },
  ): Promise<ResolvedSource> {
    if (spec.upload_id != null) {
      const upload = this.#upload(uploads, spec.upload_id)
      return this.#stored(upload.storage_key, upload.filename, label, uploaded.get(upload.storage_key))
    }
    if (spec.render_id != null) {
      const file = await this.#renderFile(owner, spec.render_id, spec.file_id)
      const bytes = await readStoredFile(this.#d.fileStore, file.storage_key)
      return this.#stored(file.storage_key, file.filename, label, bytes)
    }
    if (spec.url != null) return fetchSource(spec.url, fetch, label)
    const base64 = DATA_URI.exec(spec.data_uri ?? '')?.[3] ?? ''
    return { bytes: Buffer.from(base64, 'base64'), name: `source-${index + 1}.pdf` }
  }

  async #renderFile(owner: SourceOwner, renderId: string, fileId: string | undefined): Promise<RenderFile> {
    const found = await this.#d.renderService.withFiles(owner.workspaceId, owner.test, renderId)
    if (!found) throw renderNotFound(renderId, owner.test)
    const { render, files } = found
    if (render.status !== 'succeeded') {
      throw new ProblemError(
        'invalid_pdf_source',
        `Render ${renderId} has no files (it is ${render.status}).`,
      )
    }
    const file = fileId ? files.find((f) => f.id === fileId) : files.find((f) => f.format === 'pdf')
    if (!file) {
      throw fileId
        ? new ProblemError('not_found', `Render ${renderId} has no file ${fileId}.`)
        : new ProblemError('invalid_pdf_source', `Render ${renderId} has no PDF file.`)
    }
    if (file.deleted_at)
      throw new ProblemError('file_expired', `File ${file.id} of render ${renderId} is deleted.`)
    if (file.format !== 'pdf')
      throw new ProblemError('invalid_pdf_source', `File ${file.id} is ${file.format}, not a PDF.`)
    return file
  }

  #stored(key: string, name: string, label: string, bytes: Buffer | undefined): ResolvedSource {
    if (!bytes) throw new ProblemError('file_expired', `The file of ${label} is no longer stored.`)
    const path = this.#d.fileStore.localPath?.(key)
    return { bytes, name, ...(path ? { path } : {}) }
  }
}

async function fetchSource(url: string, fetch: GuardedFetch, label: string): Promise<ResolvedSource> {
  let response: Awaited<ReturnType<GuardedFetch>>
  try {
    response = await fetch(url, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_SOURCE_BYTES })
  } catch (err) {
    // the guard's refusal (url_not_allowed) and its size limit keep their own codes
    if (err instanceof ProblemError) throw err
    throw new ProblemError(
      'asset_fetch_failed',
      `${label} (${url}) could not be fetched: ${(err as Error).message}.`,
    )
  }
  if (response.status < 200 || response.status >= 300) {
    throw new ProblemError('asset_fetch_failed', `${label} (${url}) answered HTTP ${response.status}.`)
  }
  const last = decodeURIComponent(new URL(response.url).pathname.split('/').pop() ?? '')
  return { bytes: response.body, name: last || 'source.pdf' }
}
