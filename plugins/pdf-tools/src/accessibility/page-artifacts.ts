import { decodePDFRawStream, PDFDict, type PDFDocument, type PDFPage, PDFRawStream } from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import { contentOperators } from './content-operators.ts'
import { markArtifacts } from './mark-artifacts.ts'
import { pageContent } from './page-content.ts'
import { name } from './structure-tree.ts'
import { uaFinding } from './ua-findings.ts'

// Each page's content, as one stream, rewritten with its unmarked painting as Artifacts. A page
// whose content cannot be read is left as it is and named in a finding.

export interface ArtifactWork {
  findings: Finding[]
  added: number
}

export function markPageArtifacts(doc: PDFDocument): ArtifactWork {
  const work: ArtifactWork = { findings: [], added: 0 }
  for (const [i, page] of doc.getPages().entries()) {
    try {
      const joined = pageContent(page)
      if (!joined) continue
      const forms = new Map<string, boolean>()
      const holdsTags = (xobject: string) => {
        if (!forms.has(xobject)) forms.set(xobject, formHoldsTags(page, xobject))
        return forms.get(xobject) === true
      }
      const marked = markArtifacts(joined, holdsTags)
      if (marked.added === 0) continue
      page.node.set(name('Contents'), doc.context.register(doc.context.flateStream(marked.content)))
      work.added += marked.added
    } catch (err) {
      work.findings.push(
        uaFinding(
          'untaggedContent',
          `The content of page ${i + 1} could not be read (${(err as Error).message}); content outside the structure tree is not marked as an artifact.`,
          { page: i + 1 },
        ),
      )
    }
  }
  return work
}

/** whether a page's Form XObject has marked content with MCIDs of its own */
function formHoldsTags(page: PDFPage, xobject: string): boolean {
  const xobjects = page.node.Resources()?.lookup(name('XObject'))
  const form = xobjects instanceof PDFDict ? xobjects.lookup(name(xobject)) : undefined
  if (!(form instanceof PDFRawStream) || form.dict.get(name('Subtype')) !== name('Form')) return false
  // a form that cannot be read is treated as holding tags: left as it is rather than hidden
  try {
    const content = decodePDFRawStream(form).decode()
    return contentOperators(content).some(
      (o) =>
        o.op === 'BDC' && /\/MCID\s/.test(Buffer.from(content.subarray(o.start, o.end)).toString('latin1')),
    )
  } catch {
    return true
  }
}
