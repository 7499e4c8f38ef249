import { readFile } from 'node:fs/promises'
import { Value } from 'typebox/value'
import { plannedSteps } from '../conformance/conformance-options.ts'
import { type ConformanceStageDeps, runSteps, validateConformance } from '../conformance/conformance-stage.ts'
import type { PdfTool } from '../kernel/plugins/extension-points.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { Registry } from '../sdk/extension-points.ts'
import type { PdfPostProcessor } from '../sdk/pdf-pipeline-contracts.ts'
import type { GuardedFetch, RenderedFile } from '../sdk/render-contracts.ts'

// The PDF render options applied after printing (SPEC 2.16): `pdf.metadata` (and the title of a
// document that has none) is written to the Info dictionary and the XMP packet by the metadata
// tool, `pdf.attachments` embeds files, then the registered post-processors the options call
// for (PDF/A sees the attachments it must declare), then the validators' reports on the
// unencrypted file, then `pdf.protect` encrypts (last, so nothing is added to a file after it is
// sealed). The TEST stamp went on before all of it (the render runner).

/** One attachment may be 10 MB, all of a render's together 25 MB (docs/decisions/0010). */
export const MAX_ATTACHMENT_BYTES = 10 * 1000 * 1000
export const MAX_ATTACHMENTS_TOTAL = 25 * 1000 * 1000
const FETCH_TIMEOUT_MS = 20_000
const DATA_URI = /^data:([^,;]*)(?:;[^,;]+=[^,;]*)*(;base64)?,(.*)$/s

interface AttachmentOption {
  name: string
  url?: string
  data_uri?: string
  mime_type?: string
  description?: string
  relationship?: string
}

export interface FinishingDeps extends ConformanceStageDeps {
  /** the title of a document that has none and is given none in `pdf.metadata`: the file name's stem */
  fallbackTitle: string
  tools: Registry<PdfTool>
  postProcessors: Iterable<PdfPostProcessor>
  fetch: GuardedFetch
}

/** A printed PDF with its attachments and protection; other files and plain PDFs pass unchanged. */
export async function finishPdf(
  file: RenderedFile,
  options: Record<string, unknown>,
  deps: FinishingDeps,
): Promise<RenderedFile> {
  const attachments = (options.attachments ?? []) as AttachmentOption[]
  const protect = options.protect as Record<string, unknown> | null | undefined
  const metadata = metadataToSet(
    file,
    options.metadata as Record<string, unknown> | undefined,
    options.pdfua === true,
    deps,
  )
  if (file.format !== 'pdf') return file
  const steps = plannedSteps(deps.postProcessors, options)
  // the request was checked against the same registries; a step whose schema refuses the options
  // here means the worker loads other plugins than the API: a failure of the installation
  for (const { processor, options: given } of steps) {
    if (!Value.Check(processor.optionsSchema, given))
      throw new ProblemError('render_failed', `The ${processor.id} step does not take the options given.`)
  }
  let bytes = file.bytes
  if (metadata) {
    deps.log(`metadata ${Object.keys(metadata).join(', ')}`)
    bytes = await runTool(deps, 'metadata', bytes, { set: metadata })
  }
  if (attachments.length > 0) {
    const files = await loadAttachments(attachments, deps.fetch)
    bytes = await runTool(deps, 'attach', bytes, { files })
  }
  // a registered step of the protect phase runs after the reports, with the protect tool
  const beforeProtect = steps.filter((s) => s.processor.phase !== 'protect')
  const sealing = steps.filter((s) => s.processor.phase === 'protect')
  const processed = await runSteps(bytes, beforeProtect, deps)
  bytes = processed.bytes
  await validateConformance(bytes, options, processed.findings, deps)
  bytes = (await runSteps(bytes, sealing, deps)).bytes
  if (protect) {
    const problems = tool(deps, 'protect').check?.(protect) ?? []
    if (problems.length > 0)
      throw validationProblem(problems.map((p) => ({ ...p, path: `/output/pdf/protect${p.path}` })))
    bytes = await runTool(deps, 'protect', bytes, protect)
  }
  return { ...file, bytes }
}

/**
 * What the metadata tool sets (Info and XMP alike): `pdf.metadata` as given, and the file name's
 * stem as the title of a document that has no title and is given none, instead of the browser's
 * stand-in (`about:blank`, decision 0056). Undefined when there is nothing to set. PDF/UA output
 * gets no stand-in title: a document without one is a finding the author must fix (7.1-9).
 */
function metadataToSet(
  file: RenderedFile,
  given: Record<string, unknown> | undefined,
  pdfua: boolean,
  deps: Pick<FinishingDeps, 'fallbackTitle' | 'tools' | 'log'>,
): Record<string, unknown> | undefined {
  const set = { ...given }
  if (file.title === null && !('title' in set) && !pdfua) {
    // an installation without the metadata tool keeps the browser's title rather than fail a render
    if (deps.tools.get('metadata')) set.title = deps.fallbackTitle
    else deps.log('no metadata tool: the untitled document keeps the title its output gave it')
  }
  return Object.keys(set).length > 0 ? set : undefined
}

function tool(deps: FinishingDeps, name: string): PdfTool {
  const found = deps.tools.get(name)
  if (!found) throw new ProblemError('render_failed', `This installation has no PDF tool ${name}.`)
  return found
}

async function runTool(deps: FinishingDeps, name: string, bytes: Buffer, options: Record<string, unknown>) {
  const out = await tool(deps, name).run([{ bytes, name: 'document.pdf' }], options, deps)
  const [first] = out.files
  if (!first) throw new ProblemError('render_failed', `The PDF tool ${name} returned no file.`)
  return 'bytes' in first ? first.bytes : readFile(first.path)
}

async function loadAttachments(list: AttachmentOption[], fetch: GuardedFetch) {
  const files = []
  let total = 0
  for (const [i, a] of list.entries()) {
    const bytes = await loadAttachment(a, fetch, i)
    total += bytes.length
    if (total > MAX_ATTACHMENTS_TOTAL) {
      throw new ProblemError(
        'attachment_failed',
        `The attachments add up to more than ${MAX_ATTACHMENTS_TOTAL} bytes.`,
      )
    }
    files.push({
      name: a.name,
      bytes,
      ...(a.mime_type ? { mime_type: a.mime_type } : {}),
      ...(a.description ? { description: a.description } : {}),
      ...(a.relationship ? { relationship: a.relationship } : {}),
    })
  }
  return files
}

async function loadAttachment(a: AttachmentOption, fetch: GuardedFetch, index: number): Promise<Buffer> {
  const label = `attachment ${index + 1} (${a.name})`
  let bytes: Buffer
  if ((a.url === undefined) === (a.data_uri === undefined)) {
    throw new ProblemError('attachment_failed', `${label} needs exactly one of url or data_uri.`)
  }
  if (a.data_uri !== undefined) {
    const match = DATA_URI.exec(a.data_uri)
    if (!match) throw new ProblemError('attachment_failed', `${label}: data_uri is not a data: URI.`)
    bytes = match[2] ? Buffer.from(match[3] ?? '', 'base64') : Buffer.from(decodeURIComponent(match[3] ?? ''))
  } else {
    let response: Awaited<ReturnType<GuardedFetch>>
    try {
      response = await fetch(a.url!, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_ATTACHMENT_BYTES })
    } catch (err) {
      const reason = err instanceof ProblemError ? (err.detail ?? err.code) : (err as Error).message
      throw new ProblemError('attachment_failed', `${label} could not be loaded: ${reason}.`)
    }
    if (response.status < 200 || response.status >= 300) {
      throw new ProblemError('attachment_failed', `${label} could not be loaded: HTTP ${response.status}.`)
    }
    bytes = response.body
  }
  if (bytes.length > MAX_ATTACHMENT_BYTES) {
    throw new ProblemError('attachment_failed', `${label} is larger than ${MAX_ATTACHMENT_BYTES} bytes.`)
  }
  return bytes
}
