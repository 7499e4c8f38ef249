// Task module (PDF thread): a merged PDF with one bookmark per source (merge's pdf-lib part).
import { exclusiveBuffer, transferring } from '@docsvc/core/sdk'
import { addSourceBookmarks } from '../outline.ts'
import { pdfProblem } from './pdf-task-errors.ts'

export default async function bookmarksTask(input: {
  pdf: Uint8Array
  entries: { title: string; pages: number }[]
}): Promise<Uint8Array> {
  try {
    const bytes = await addSourceBookmarks(input.pdf, input.entries)
    return transferring(bytes, exclusiveBuffer(bytes))
  } catch (err) {
    throw pdfProblem(err, 'the merged PDF')
  }
}
