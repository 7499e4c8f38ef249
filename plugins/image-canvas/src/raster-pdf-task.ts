// Task module (a WorkerPool thread): the canvas as a PDF page. pdf-lib decodes the PNG to embed
// it, which for a canvas near 16,384 px a side means gigabytes and minutes of JavaScript: here it
// runs within a memory and time budget instead of on the event loop.
import { exclusiveBuffer, transferring } from '@docsvc/core/sdk'
import type { TextRun } from './layer-context.ts'
import { rasterPdf } from './pdf-page.ts'

export interface RasterPdfInput {
  png: Uint8Array
  page: { width: number; height: number }
  runs: TextRun[]
}

export default async function rasterPdfTask(input: RasterPdfInput): Promise<Uint8Array> {
  const bytes = await rasterPdf(input.png, input.page, input.runs)
  return transferring(bytes, exclusiveBuffer(bytes))
}
