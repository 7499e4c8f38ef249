import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { RenderRequest } from '../renders/render.ts'
import type { ProducerContext, ProducerWork, Production } from '../sdk/producer-contracts.ts'
import type { ProducedFile } from '../sdk/render-contracts.ts'
import type { TestMark } from '../test-mark/test-mark.ts'
import type { PdfSources } from './pdf-sources.ts'
import { isBilledTool } from './pdf-tool-billing.ts'
import { checkToolRequest, toolInputOf } from './pdf-tool-request.ts'
import { markOutputs, markSources } from './pdf-tool-test-mark.ts'

const CONTENT_TYPES = { pdf: 'application/pdf', zip: 'application/zip' } as const

/** Makes `pdf_tool` renders: fetch the sources, run the tool of the pdfTools registry, keep its files. */
export class PdfToolProducer implements ProducerWork {
  readonly #plugins: PluginSet
  readonly #sources: PdfSources
  readonly #testMark: TestMark

  constructor(deps: { plugins: PluginSet; pdfSources: PdfSources; testMark: TestMark }) {
    this.#plugins = deps.plugins
    this.#sources = deps.pdfSources
    this.#testMark = deps.testMark
  }

  validate(request: RenderRequest): void {
    checkToolRequest(request, this.#plugins.registries.pdfTools)
  }

  async produce(ctx: ProducerContext): Promise<Production> {
    const input = toolInputOf(ctx.render.request)
    const tool = this.#plugins.registries.pdfTools.get(input.tool)
    if (!tool)
      throw new ProblemError(
        'render_failed',
        `This installation no longer offers the PDF tool ${input.tool}.`,
      )
    const owner = { workspaceId: ctx.render.workspace_id, test: ctx.render.test }
    let sources = await this.#sources.resolve(owner, input.sources, ctx.fetch)
    ctx.log(
      `${input.tool}: ${sources.length} source${sources.length === 1 ? '' : 's'}, ${sources.reduce((n, s) => n + s.bytes.length, 0)} bytes`,
    )
    // a metadata read makes no file: nothing to mark
    const marking = ctx.render.test && tool.fileCount?.(input.options) !== 0
    let allMarked = true
    if (marking) ({ sources, allMarked } = await markSources(sources, this.#testMark))
    const output = await tool.run(sources, input.options, {
      signal: ctx.signal,
      log: ctx.log,
      scratchDir: ctx.scratchDir,
      maxPages: ctx.maxPages,
    })
    let files: ProducedFile[] = output.files.map((f) => {
      // the tools refuse sources over the limit before working; this is the backstop for outputs
      if (f.pages !== undefined && f.pages > ctx.maxPages) {
        throw new ProblemError(
          'page_limit_exceeded',
          `The output has ${f.pages} pages; the plan allows ${ctx.maxPages}.`,
        )
      }
      return {
        format: f.format,
        contentType: CONTENT_TYPES[f.format],
        ...('bytes' in f ? { bytes: f.bytes } : { path: f.path, size: f.size }),
        ...(f.pages !== undefined ? { pages: f.pages } : {}),
        ...(f.filename !== undefined ? { filename: f.filename } : {}),
      }
    })
    if (marking && !allMarked) files = await markOutputs(files, this.#testMark)
    return {
      files,
      ...(output.result ? { result: output.result } : {}),
      billed: isBilledTool(input.tool),
    }
  }
}
