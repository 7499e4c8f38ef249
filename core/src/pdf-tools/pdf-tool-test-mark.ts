import { readFile, writeFile } from 'node:fs/promises'
import type { PdfToolSource } from '../kernel/plugins/extension-points.ts'
import { isStagedFile, type ProducedFile } from '../sdk/render-contracts.ts'
import type { TestMark } from '../test-mark/test-mark.ts'

// SPEC "Test mode": a test key's output is marked TEST, the PDF tools' too (else a test key
// would merge, split or unlock for free with clean results). The mark goes on the sources, so
// every page a tool passes on carries it, whatever the tool makes of them (a split's 200 parts,
// a zip, an encrypted copy). A source the stamp cannot open (encrypted: only unlock takes one)
// passes as it is, and then the tool's PDFs are marked instead.

const asPdf = (bytes: Buffer) => ({ format: 'pdf' as const, contentType: 'application/pdf', bytes })

/** The sources with the mark, and whether every one of them has it. */
export async function markSources(
  sources: PdfToolSource[],
  testMark: TestMark,
): Promise<{ sources: PdfToolSource[]; allMarked: boolean }> {
  let allMarked = true
  const marked = []
  for (const source of sources) {
    try {
      // the file on disk (`path`) keeps the unmarked bytes: the tool must not take it
      marked.push({ name: source.name, bytes: (await testMark(asPdf(source.bytes))).bytes })
    } catch {
      allMarked = false
      marked.push(source)
    }
  }
  return { sources: marked, allMarked }
}

/** A tool's PDFs with the mark (in memory or staged on disk); a failure fails the render. */
export async function markOutputs(files: ProducedFile[], testMark: TestMark): Promise<ProducedFile[]> {
  const marked: ProducedFile[] = []
  for (const file of files) {
    if (file.format !== 'pdf') {
      // only split makes a zip, and split takes no encrypted source: its parts are marked
      marked.push(file)
    } else if (isStagedFile(file)) {
      const bytes = (await testMark(asPdf(await readFile(file.path)))).bytes
      await writeFile(file.path, bytes)
      marked.push({ ...file, size: bytes.length })
    } else {
      marked.push({ ...file, bytes: (await testMark(asPdf(file.bytes))).bytes })
    }
  }
  return marked
}
