import type { PdfTool } from '../kernel/plugins/extension-points.ts'
import { type FieldProblem, ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { RenderRequest } from '../renders/render.ts'
import type { Registry } from '../sdk/extension-points.ts'
import { type PdfSourceSpec, sourceShapeProblems } from './pdf-sources.ts'

/** SPEC 8: merge takes 2 to 200 PDFs. */
export const MAX_MERGE_SOURCES = 200

export const PDF_TOOL_INPUT = 'pdf_tool'

/** The `input` a tool render stores: which tool, its sources, and its own fields. */
export interface PdfToolInput {
  type: typeof PDF_TOOL_INPUT
  tool: string
  sources: PdfSourceSpec[]
  options: Record<string, unknown>
}

const SHARED = new Set([
  'mode',
  'priority',
  'reference',
  'metadata',
  'test',
  'timeout_behavior',
  'webhook',
  'delivery',
  'expires_in',
  'hosted',
  'retention_days',
  'webhook_url',
  'source',
  'sources',
])

/** The stored input of a tool request body: `source` or `sources`, the rest as options. */
export function pdfToolInput(tool: string, body: Record<string, unknown>): PdfToolInput {
  const sources = (body.sources ?? (body.source ? [body.source] : [])) as PdfSourceSpec[]
  const options = Object.fromEntries(
    Object.entries(body).filter(([k, v]) => !SHARED.has(k) && v !== undefined),
  )
  return { type: PDF_TOOL_INPUT, tool, sources, options }
}

export function toolInputOf(request: RenderRequest): PdfToolInput {
  return request.input as unknown as PdfToolInput
}

/**
 * The checks of a tool request that need no PDF (run when the render is created): each source's
 * shape, the tool's own rules (page syntax, passwords), and deliveries the output cannot fit.
 */
export function checkToolRequest(request: RenderRequest, tools: Registry<PdfTool>): void {
  const input = toolInputOf(request)
  const tool = tools.get(input.tool)
  if (!tool) throw new ProblemError('validation_error', `This installation offers no PDF tool ${input.tool}.`)
  const many = input.tool === 'merge'
  const problems: FieldProblem[] = input.sources.flatMap((s, i) =>
    sourceShapeProblems(s, many ? `/sources/${i}` : '/source'),
  )
  problems.push(...(tool.check?.(input.options) ?? []))
  const files = tool.fileCount?.(input.options) ?? 1
  if (request.delivery.type === 'binary' && files !== 1) {
    // SPEC 4.4: binary carries one file (a split with zip: true or one range)
    const made =
      files === 0 ? 'makes no file' : files === undefined ? 'may make several files' : `makes ${files} files`
    problems.push({
      path: '/delivery',
      code: 'conflict',
      message: `binary delivery needs exactly one output file; this request ${made} (use url, base64 or zip: true)`,
    })
  }
  if (problems.length > 0) throw validationProblem(problems)
}
