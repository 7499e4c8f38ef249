import { decodePDFRawStream, PDFArray, type PDFDocument, PDFRawStream, PDFRef } from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
import { markArtifacts } from './mark-artifacts.ts'
import { name } from './structure-tree.ts'
import { uaFinding } from './ua-findings.ts'

// Each page's content, as one stream (a page's streams are one sequence of operators, and a
// marked-content sequence may cross from one to the next), rewritten with its unmarked painting
// as Artifacts. A page whose content cannot be read is left as it is and named in a finding.

export interface ArtifactWork {
  findings: Finding[]
  added: number
}

export function markPageArtifacts(doc: PDFDocument): ArtifactWork {
  const work: ArtifactWork = { findings: [], added: 0 }
  for (const [i, page] of doc.getPages().entries()) {
    const contents = page.node.get(name('Contents'))
    const refs = contents instanceof PDFRef ? [contents] : []
    const listed = contents instanceof PDFRef ? doc.context.lookup(contents) : contents
    const streams = (listed instanceof PDFArray ? listed.asArray() : refs).map((s) =>
      s instanceof PDFRef ? doc.context.lookup(s) : s,
    )
    if (streams.length === 0) continue
    try {
      const decoded = streams.map((s) => {
        if (!(s instanceof PDFRawStream)) throw new Error('not a stream')
        return decodePDFRawStream(s).decode()
      })
      // a space between streams: one may end in a token the next continues
      const joined = Buffer.concat(decoded.flatMap((d) => [Buffer.from(d), Buffer.from('\n')]))
      const marked = markArtifacts(joined)
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
