// Task module (PDF thread): the PDF/UA-1 step's pdf-lib part (pdfua-processor.ts).

import { PDFDocument } from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import { exclusiveBuffer, transferring } from '@docsvc/core/sdk'
import { pdfProblem } from '../tasks/pdf-task-errors.ts'
import { fixDocumentIdentity, type IdentityOptions } from './document-identity.ts'
import { figuresWithoutAlt } from './figure-alt.ts'
import { fixLinkAnnotations } from './link-annotations.ts'
import { markPageArtifacts } from './page-artifacts.ts'
import { structTreeRoot } from './structure-tree.ts'
import { uaFinding } from './ua-findings.ts'

export interface AccessibilityTaskInput {
  pdf: Uint8Array
  identity: IdentityOptions
}

export interface AccessibilityTaskOutput {
  pdf: Uint8Array
  findings: Finding[]
  /** what was changed, for the render's log */
  done: string
}

export default async function accessibilityTask(
  input: AccessibilityTaskInput,
): Promise<AccessibilityTaskOutput> {
  let doc: PDFDocument
  try {
    doc = await PDFDocument.load(input.pdf, { updateMetadata: false })
  } catch (err) {
    // the printed PDF is ours: a PDF pdf-lib cannot read is a failed render, not a bad source
    throw pdfProblem(err, 'the printed PDF', 'render_failed')
  }
  const findings = fixDocumentIdentity(doc, input.identity)
  let done = 'title, language and viewer preferences checked'
  if (!structTreeRoot(doc)) {
    // without a structure tree all content would become artifacts: nothing to mark against
    findings.push(uaFinding('notTagged', 'The PDF has no structure tree (it is not tagged).'))
  } else {
    const artifacts = markPageArtifacts(doc)
    const links = fixLinkAnnotations(doc)
    findings.push(...artifacts.findings, ...figuresWithoutAlt(doc))
    done += `; ${artifacts.added} artifact sequences added, ${links.described} links described, ${links.tagged} links tagged`
  }
  const pdf = await doc.save({ updateFieldAppearances: false, useObjectStreams: false })
  return transferring({ pdf, findings, done }, exclusiveBuffer(pdf))
}
