import type { PDFDocument } from '@cantoo/pdf-lib'
import type { Finding } from '@docsvc/core/sdk'
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
