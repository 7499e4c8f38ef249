import { readFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import type { Logger } from 'pino'
import type { BillingService } from '../billing/billing-service.ts'
import type { ConformanceReportJson } from '../conformance/conformance-report-json.ts'
import { hybridFinishingOptions } from '../einvoices/hybrid-einvoice.ts'
import type { EventOutbox } from '../events/event-outbox.ts'
import { putLocalFiles } from '../files/put-local-files.ts'
import type { ScratchDirs, ScratchLease } from '../files/scratch-dirs.ts'
import type { Config } from '../kernel/config.ts'
import { newId } from '../kernel/ids.ts'
import { mapWithLimit } from '../kernel/map-with-limit.ts'
import { registeredValues } from '../kernel/plugins/extension-points.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { INTERNAL_FAILURE_MESSAGE, ProblemError } from '../kernel/problem-error.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import { finishPdf } from '../pdf-tools/pdf-finishing.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { Production } from '../sdk/producer-contracts.ts'
import type { Job } from '../sdk/queue-contracts.ts'
import {
  type GuardedFetch,
  isStagedFile,
  type ProducedFile,
  type RenderDocument,
  type RenderedFile,
  type RenderWarning,
  type RenderWarningCode,
  type StagedFile,
} from '../sdk/render-contracts.ts'
import type { TestMark } from '../test-mark/test-mark.ts'
import type { WorkspaceService } from '../workspaces/workspace-service.ts'
import type { Render, RenderError, RenderFile } from './render.ts'
import type { RenderCompletion, RenderFinish } from './render-completion.ts'
import { fetchRenderData } from './render-data.ts'
import { eventFileViews, renderEventWriter, webhookRecord } from './render-events.ts'
import type { RenderFileLinks } from './render-file-links.ts'
import { extensionOf, renderFilename, renderFileStem } from './render-filename.ts'
import type { RenderFiles } from './render-files.ts'
import { hostingOf, responseReadsFiles, TRANSIENT_COPY_MS } from './render-hosting.ts'
import { discardLargeBodies, loadLargeBodies } from './render-input-bodies.ts'
import type { LogLine, RenderRepository } from './render-repository.ts'
import { openSecrets, type RenderSecretBox } from './render-secrets.ts'
import { renderView } from './render-view.ts'
import { templateRequestFields } from './request-templating.ts'

export interface RenderRunnerDeps {
  renderRepository: RenderRepository
  workspaceService: Pick<WorkspaceService, 'planOf' | 'get'>
  billingService: Pick<BillingService, 'countBilled' | 'release'>
  plugins: PluginSet
  outboundGuard: OutboundGuard
  fileStore: FileStore
  renderCompletion: RenderCompletion
  renderFileLinks: RenderFileLinks
  renderFiles: RenderFiles
  renderSecretBox: RenderSecretBox
  eventOutbox: EventOutbox
  scratchDirs: ScratchDirs
  testMark: TestMark
  config: Config
  log: Logger
}

const DAY_MS = 24 * 3600 * 1000
const HARD_STOP_GRACE_MS = 2_000
const STORE_CONCURRENCY = 16
const WORKER_NAME = `${hostname()}/${process.pid}`

// each line keeps its own time: the log then shows where a slow render spent it
const logLine = (message: string): LogLine => ({ at: new Date().toISOString(), message })

/** What a failure tells the client: a ProblemError's code, else render_failed. */
export function renderErrorOf(err: unknown): RenderError {
  if (err instanceof ProblemError) {
    const { line, column, excerpt } = err.extras as { line?: number; column?: number; excerpt?: string }
    const { errors } = err.extras
    return {
      code: err.code,
      message: err.detail ?? err.message,
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
      ...(excerpt !== undefined ? { excerpt } : {}),
      ...(errors && errors.length > 0 ? { errors } : {}),
    }
  }
  return { code: 'render_failed', message: INTERNAL_FAILURE_MESSAGE }
}

/** A production's result with the render's conformance reports under `conformance` (SPEC 2.4). */
function withConformance(
  result: Record<string, unknown> | undefined,
  conformance: Record<string, ConformanceReportJson>,
): Record<string, unknown> | undefined {
  if (Object.keys(conformance).length === 0) return result
  const given = (result?.conformance ?? {}) as Record<string, unknown>
  return { ...result, conformance: { ...given, ...conformance } }
}

/** The worker side of a render (DESIGN.md §6): input -> output -> stored file -> finished row. */
export class RenderRunner {
  readonly #d: RenderRunnerDeps

  constructor(deps: RenderRunnerDeps) {
    this.#d = deps
  }

  readonly handle = async (job: Job<{ renderId: string }>, signal: AbortSignal): Promise<void> => {
    const { renderRepository: renders, renderCompletion } = this.#d
    const found = await renders.getById(job.data.renderId)
    if (!found) return
    if (found.status !== 'queued' && found.status !== 'processing') {
      // canceled while queued (e.g. a sync timeout): it will not run, so its stored bodies go
      await discardLargeBodies(this.#d.fileStore, found)
      return
    }
    const claimedAt = new Date().toISOString()
    if (!(await renders.claim(found.id, claimedAt))) return
    // the record as the claim left it: its events carry this attempt's start
    const render: Render = {
      ...found,
      status: 'processing',
      started_at: claimedAt,
      updated_at: claimedAt,
      attempts: found.attempts + 1,
    }
    const warnings: RenderWarning[] = []
    // which process ran which attempt: what an operator asks first about a retried render
    const logs: LogLine[] = [logLine(`attempt ${render.attempts} on worker ${WORKER_NAME}`)]
    const scratch = this.#d.scratchDirs.lease()
    // the conformance reports of the render's PDF (result.conformance), kept when it fails on one
    const conformance: Record<string, ConformanceReportJson> = {}
    let finish: RenderFinish = {}
    /** the queue took the job back (this worker is stopping, or its lease ran out): the next attempt renders */
    let handedOver = false
    try {
      // the request as it was sent, for this run only: large bodies read back, credentials opened
      const loaded = await loadLargeBodies(this.#d.fileStore, render.request)
      const sent = { ...render, request: openSecrets(this.#d.renderSecretBox, loaded, render.secrets) }
      const produced = await this.#produce(sent, signal, warnings, logs, scratch, conformance)
      const { files, billed } = produced
      const result = withConformance(produced.result, conformance)
      const madeAt = new Date()
      const rows = files.map((file, i) => this.#row(render, file, i, files.length, madeAt))
      const storing = this.#store(files, rows)
      storing.catch(() => {}) // awaited below; handled now in case signing throws first
      // the event's file links are signed while the store flushes the files to disk
      const fileViews = eventFileViews(this.#d, 'render.succeeded', render, rows)
      const stored = await storing
      logs.push(logLine(`stored ${stored.length} file${stored.length === 1 ? '' : 's'}`))
      // finished once stored: a split's 200 files take a moment
      const now = new Date()
      const at = now.toISOString()
      const { hosted } = hostingOf(render)
      // a copy that is not hosted waits only for the sync response, if that reads it
      const keepMs = hosted ? render.retention_days * DAY_MS : TRANSIENT_COPY_MS
      const patch = {
        status: 'succeeded' as const,
        warnings,
        ...(result ? { result } : {}),
        files_expire_at: new Date(now.getTime() + keepMs).toISOString(),
      }
      const done: Render = { ...render, ...patch, finished_at: at, updated_at: at }
      // the event's record, links signed once: a sync response in this process answers it too
      const record = renderView(done, fileViews)
      const { settings } = await this.#d.workspaceService.get(render.workspace_id)
      const finished = await renders.finish(
        render,
        patch,
        stored,
        render.test || billed === false ? undefined : await this.#bill(render, now),
        at,
        renderEventWriter(
          this.#d,
          'render.succeeded',
          done,
          stored,
          webhookRecord(record, settings.file_urls_in_webhooks),
        ),
      )
      if (finished) finish = { record }
      if (!hosted && !responseReadsFiles(render)) await this.#d.renderFiles.release(render, new Date())
    } catch (err) {
      if (signal.aborted) {
        handedOver = true
        logs.push(logLine('stopped by the queue; the next attempt renders'))
        throw err
      }
      const error = renderErrorOf(err)
      if (error.code === 'render_failed') this.#d.log.warn({ err, render_id: render.id }, 'render failed')
      else if (err instanceof ProblemError && err.extras.internal) {
        this.#d.log.warn(
          { code: error.code, internal: err.extras.internal, render_id: render.id },
          'render failed',
        )
      }
      const at = new Date().toISOString()
      // a render that failed its PDF/A, PDF/UA or e-invoice check answers with its report (SPEC 7.3)
      const failedWith =
        err instanceof ProblemError ? (err.extras.result as Record<string, unknown> | undefined) : undefined
      const result = withConformance(failedWith, conformance)
      const patch = { status: 'failed' as const, warnings, error, ...(result ? { result } : {}) }
      const failed: Render = { ...render, ...patch, finished_at: at, updated_at: at }
      await renders.finish(
        render,
        patch,
        [],
        undefined,
        at,
        renderEventWriter(this.#d, 'render.failed', failed, []),
      )
    } finally {
      await renders.appendLog(render.id, logs).catch(() => {})
      if (!handedOver) {
        await discardLargeBodies(this.#d.fileStore, render).catch(() => {})
        renderCompletion.notify(render.id, finish)
      }
      // after the answer: by now the files it held are stored or not needed
      await scratch.dispose().catch(() => {})
    }
  }

  /**
   * The billing row of a finished live render and its count in the billing cycle (SPEC 1.13),
   * both written in the transaction that finishes the render. The plan is read before it: the
   * transaction must not wait on a second connection (SQLite has one).
   */
  async #bill(render: Render, at: Date) {
    const plan = await this.#d.workspaceService.planOf(render.workspace_id)
    const { billingService } = this.#d
    return {
      kind: render.kind,
      // a workspace deleted meanwhile has no cycle left to count in; its reservation goes back
      count: plan
        ? (trx: Parameters<BillingService['countBilled']>[0]) =>
            billingService.countBilled(trx, { unitId: render.id, workspaceId: render.workspace_id, plan, at })
        : (trx: Parameters<BillingService['countBilled']>[0]) => billingService.release(trx, render.id),
    }
  }

  async #produce(
    render: Render,
    signal: AbortSignal,
    warnings: RenderWarning[],
    logs: LogLine[],
    scratch: ScratchLease,
    conformance: Record<string, ConformanceReportJson>,
  ): Promise<Production> {
    const { plugins, outboundGuard, workspaceService, config } = this.#d
    const { request } = render
    const plan = await workspaceService.planOf(render.workspace_id)
    const deadline = Date.now() + config.renderTimeoutSeconds * 1000
    // the hard stop comes a moment after the deadline, so an output that watches the deadline
    // can still say what the page was waiting for (wait_timeout) instead of render_canceled
    const timeout = AbortSignal.timeout(config.renderTimeoutSeconds * 1000 + HARD_STOP_GRACE_MS)
    const base = {
      renderId: render.id,
      workspaceId: render.workspace_id,
      test: render.test,
      signal: AbortSignal.any([signal, timeout]),
      warn: (code: RenderWarningCode, message: string) => {
        if (!warnings.some((w) => w.code === code && w.message === message)) warnings.push({ code, message })
      },
      log: (message: string) => {
        logs.push(logLine(message))
      },
      scratchDir: scratch.dir,
    }
    // every fetch of the render ends by the render's deadline, and with the render if canceled
    const fetch: GuardedFetch = (url, options) =>
      outboundGuard.fetch(url, { ...options, deadline, signal: base.signal })
    const data = request.data_url ? await fetchRenderData(request.data_url, fetch) : (request.data ?? {})
    const maxPages = plan?.limits.max_pages ?? Number.POSITIVE_INFINITY
    const outputOptions = request.output.format === 'pdf' ? request.output.pdf : request.output.image
    const locale = typeof outputOptions?.locale === 'string' ? { locale: outputOptions.locale } : {}
    // the filename, header and footer of a templated render, filled from its data before printing
    const { filename, ...templatedPdf } = await templateRequestFields(plugins.registries, request, data, {
      ...locale,
      warn: base.warn,
    })
    const fallbackTitle = renderFileStem(filename ?? request.filename, render.id)
    const preview = render.kind === 'preview'
    // read when used: a template's producer sets its rendered header and footer on the request first
    const printOptions = (): Record<string, unknown> =>
      (request.output.format === 'pdf' ? { ...request.output.pdf, ...templatedPdf } : request.output.image) ??
      {}
    /** the bytes of every PDF finished so far: each is finished exactly once (decision 0121) */
    const finished = new WeakSet<Buffer>()
    /** the validated XML an `output.einvoice` render embeds, written once for the render */
    let hybrid: Promise<Record<string, unknown>> | undefined
    const hybridOptions = (): Promise<Record<string, unknown>> => {
      hybrid ??= hybridFinishingOptions(request, plugins.registries, {
        ...base,
        deadline,
        validationTimeoutSeconds: config.einvoiceValidationTimeoutSeconds,
      }).then((made) => {
        if (!made) return {}
        // the e-invoice report keeps the shape POST /v1/einvoices gives it (SPEC 2.4)
        conformance.einvoice = made.report as unknown as ConformanceReportJson
        return made.options
      })
      return hybrid
    }
    const finish = async (file: RenderedFile, given: Record<string, unknown>): Promise<RenderedFile> => {
      const options = file.format === 'pdf' ? { ...given, ...(await hybridOptions()) } : given
      const done = await finishPdf(file, options, {
        fallbackTitle,
        tools: plugins.registries.pdfTools,
        postProcessors: registeredValues(plugins.registries.pdfPostProcessors),
        validators: registeredValues(plugins.registries.conformanceValidators),
        validationBudgetMs: config.conformanceTimeoutSeconds * 1000,
        preview,
        test: base.test,
        fetch,
        signal: base.signal,
        warn: base.warn,
        logInternal: (message: string) => this.#d.log.warn({ render_id: base.renderId }, message),
        log: base.log,
        scratchDir: base.scratchDir,
        report: (key, report) => {
          conformance[key] = report
        },
      })
      finished.add(done.bytes)
      return done
    }
    const print = async (document: RenderDocument): Promise<RenderedFile> => {
      const output = plugins.registries.outputs.get(request.output.format)
      if (!output) throw new ProblemError('render_failed', 'This installation no longer offers the format.')
      base.log(`output ${request.output.format}`)
      // an invoice that breaks its profile fails the render before the browser prints
      await hybridOptions()
      const options = printOptions()
      // bound: output plugins are class instances (the Chromium ones render with their pool)
      const render = output.render.bind(output) as (
        d: unknown,
        o: unknown,
        c: unknown,
      ) => Promise<RenderedFile>
      const file = await render(document, options, { ...base, maxPages, deadline })
      base.log(`produced ${file.bytes.length} bytes${file.pages ? `, ${file.pages} pages` : ''}`)
      // the mark goes on before attachments and protection seal the file
      const marked = base.test ? await this.#d.testMark(file, options) : file
      return finish(marked, options)
    }
    /**
     * A producer that does not own its output answers the request's format and options: a PDF it
     * drew itself (an image_canvas template) is finished as print() finishes one, and only once.
     */
    const finishDrawn = async (production: Production): Promise<Production> => {
      if (request.output.format !== 'pdf') return production
      // one after the other: each may write the render's conformance reports
      const files: ProducedFile[] = []
      for (const file of production.files) {
        if (file.format !== 'pdf' || (!isStagedFile(file) && finished.has(file.bytes))) files.push(file)
        else if (!isStagedFile(file)) files.push(await finish(file, printOptions()))
        else {
          const { path, size: _size, ...rest } = file
          files.push(await finish({ ...rest, bytes: await readFile(path) }, printOptions()))
        }
      }
      return { ...production, files }
    }
    // a templated filename names every file the producer did not name itself
    const named = (production: Production): Production =>
      filename === undefined
        ? production
        : {
            ...production,
            files: production.files.map((file, i, all) =>
              file.filename
                ? file
                : {
                    ...file,
                    filename: renderFilename(filename, render.id, extensionOf(file.format), i, all.length),
                  },
            ),
          }
    const producer = plugins.registries.producers.get(request.input.type)
    if (producer) {
      base.log(`input ${request.input.type}`)
      const production = await producer.produce({
        ...base,
        ...locale,
        render,
        deadline,
        maxPages,
        data,
        fetch,
        print,
      })
      return named(producer.ownsOutput ? production : await finishDrawn(production))
    }
    const input = plugins.registries.inputs.get(request.input.type)
    if (!input) throw new ProblemError('render_failed', 'This installation no longer offers the input.')
    const { type: _type, ...fields } = request.input
    base.log(`input ${request.input.type}`)
    const resolve = input.resolve.bind(input) as (i: unknown, c: unknown) => Promise<RenderDocument>
    const document = await resolve(fields, { ...base, ...locale, data, fetch })
    return named({ files: [await print(document)] })
  }

  async #store(files: ProducedFile[], rows: RenderFile[]): Promise<RenderFile[]> {
    const inMemory: { file: RenderedFile; key: string }[] = []
    const staged: { file: StagedFile; key: string }[] = []
    files.forEach((file, i) => {
      const key = rows[i]!.storage_key
      if (isStagedFile(file)) staged.push({ file, key })
      else inMemory.push({ file, key })
    })
    const { fileStore } = this.#d
    try {
      // a split makes up to 200 files: moved in from disk with one flush (started first, so it
      // runs while the caller goes on), or written side by side
      const moving = putLocalFiles(
        fileStore,
        staged.map(({ file, key }) => ({ key, path: file.path, contentType: file.contentType })),
      )
      const writing = mapWithLimit(inMemory, STORE_CONCURRENCY, ({ file, key }) =>
        fileStore.put(key, file.bytes, file.contentType),
      )
      const failed = (await Promise.allSettled([moving, writing])).find((r) => r.status === 'rejected')
      if (failed) throw failed.reason
      return rows
    } catch (err) {
      // a render that fails here keeps no files: nothing would ever point at them
      await Promise.allSettled(rows.map((row) => fileStore.delete(row.storage_key)))
      throw err
    }
  }

  #row(render: Render, file: ProducedFile, position: number, count: number, now: Date): RenderFile {
    const id = newId('file')
    const ext = extensionOf(file.format)
    return {
      id,
      render_id: render.id,
      workspace_id: render.workspace_id,
      position,
      format: file.format,
      content_type: file.contentType,
      size: isStagedFile(file) ? file.size : file.bytes.length,
      pages: file.pages ?? null,
      width: file.width ?? null,
      height: file.height ?? null,
      filename: file.filename ?? renderFilename(render.request.filename, render.id, ext, position, count),
      storage_key: `${render.workspace_id}/${render.id}/${id}.${ext}`,
      created_at: now.toISOString(),
      deleted_at: null,
    }
  }
}
