import type { RenderedFile } from '../sdk/render-contracts.ts'
import { stampTestImage } from './image-test-mark.ts'
import { stampTestMark } from './pdf-test-mark.ts'

// SPEC "Test mode": a test key's output is marked TEST. The mark goes on the finished file,
// after the page or scene is done and before anything seals the file (attachments, protection):
// the one mechanism for every output (docs/decisions/0023-test-mark-on-finished-output.md).

/** How a test render's finished file gets its mark (a seam for tests whose fake outputs print no real files). */
export type TestMark = (
  file: RenderedFile,
  outputOptions?: Record<string, unknown> | null,
) => Promise<RenderedFile>

/**
 * The file with the TEST mark: every page of a PDF, the pixels of an image (a lossy one encoded
 * again at the output's `quality`). HTML has nothing outside the page to draw on and passes
 * unchanged, as do files that are not documents.
 */
export const stampTestFile: TestMark = async (file, outputOptions) => {
  const quality = typeof outputOptions?.quality === 'number' ? outputOptions.quality : undefined
  switch (file.format) {
    case 'pdf':
      return { ...file, bytes: await stampTestMark(file.bytes) }
    case 'png':
    case 'jpeg':
    case 'webp':
      return { ...file, bytes: await stampTestImage(file.bytes, file.format, quality) }
    default:
      return file
  }
}
