import { type PdfTool, ProblemError } from '@docsvc/core/sdk'
import { pageCount, qpdfStep } from './pdf-probe.ts'
import { isPasswordFailure, qpdf, qpdfMessage, type WorkDir, withWorkDir } from './qpdf.ts'
import { qpdfJob } from './qpdf-job.ts'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

/** `unlock`: decrypts with the user or owner password and drops the restrictions. */
export const unlockTool: PdfTool = {
  name: 'unlock',
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    const password = typeof options.password === 'string' ? options.password : ''
    return withWorkDir(async (work) => {
      const file = await work.write('in-1.pdf', source.bytes)
      const unchanged = async () => {
        const pages = await pageCount(work, file, 'the source', ctx.signal)
        ctx.log('the PDF is not encrypted; returned unchanged')
        return { files: [{ format: 'pdf' as const, bytes: source.bytes, pages }] }
      }
      // an encrypted file names its /Encrypt dictionary; only then is qpdf asked about the password
      if (!source.bytes.includes('/Encrypt')) return unchanged()
      const job = await qpdfJob(work, 'decrypt', {
        inputFile: file,
        password,
        outputFile: 'unlocked.pdf',
        decrypt: '',
      })
      // the password check, the decryption and the page count run side by side; the check decides
      const [check, decrypted, pages] = await Promise.allSettled([
        encryptedFor(work, file, password, ctx.signal),
        qpdfStep([job], work, ctx.signal),
        pageCount(work, file, 'the source', ctx.signal, password),
      ])
      if (check.status === 'rejected') throw check.reason
      if (!check.value) return unchanged()
      if (decrypted.status === 'rejected') throw decrypted.reason
      if (pages.status === 'rejected') throw pages.reason
      ctx.log('decrypted')
      return { files: [{ format: 'pdf', bytes: await work.read('unlocked.pdf'), pages: pages.value }] }
    })
  },
}

/**
 * True when the file is encrypted and the password is its user or owner password; false when it
 * is not encrypted. qpdf opens a file without a user password whatever is supplied, so the answer
 * must name the password as one of the two; anything else is a wrong password.
 */
async function encryptedFor(
  work: WorkDir,
  file: string,
  password: string,
  signal: AbortSignal,
): Promise<boolean> {
  const job = await qpdfJob(work, 'check', { inputFile: file, password, showEncryption: '' })
  const result = await qpdf([job], signal, work.root)
  if (/file is not encrypted/i.test(result.stdout)) return false
  if (/supplied password is (user|owner) password/i.test(result.stdout)) return true
  if (result.code === 2 && !isPasswordFailure(result)) {
    throw new ProblemError('invalid_pdf_source', `the source is not a readable PDF: ${qpdfMessage(result)}.`)
  }
  throw new ProblemError('pdf_password_required', 'The password is neither the user nor the owner password.')
}
