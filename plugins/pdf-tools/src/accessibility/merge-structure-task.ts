// Task module (PDF thread): the structure trees of a merge's tagged sources made one
// (merge-structure.ts), for the merge tool.
import { exclusiveBuffer, transferring } from '@docsvc/core/sdk'
import { pdfProblem } from '../tasks/pdf-task-errors.ts'
import { mergeStructureTrees } from './merge-structure.ts'

export interface MergeStructureOutput {
  /** the merged PDF: with the one tree, or as it came when no source was tagged */
  pdf: Uint8Array
  tagged: number
  untagged: number
}

export default async function mergeStructureTask(input: {
  merged: Uint8Array
  sources: Uint8Array[]
}): Promise<MergeStructureOutput> {
  try {
    const out = await mergeStructureTrees(input.merged, input.sources)
    // the merged bytes came in moved: they go back when unchanged
    const pdf = out.pdf ?? input.merged
    return transferring({ pdf, tagged: out.tagged, untagged: out.untagged }, exclusiveBuffer(pdf))
  } catch (err) {
    throw pdfProblem(err, 'the merged PDF')
  }
}
