import { type PdfTool, ProblemError } from '@docsvc/core/sdk'
import { pageCount, qpdfStep, requireWithinPageLimit } from './pdf-probe.ts'
import { isPasswordFailure, qpdf, unreadablePdf, type WorkDir, withWorkDir } from './qpdf.ts'
import { qpdfJob } from './qpdf-job.ts'
import type { PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

/** `unlock`: decrypts with the user or owner password and drops the restrictions. */
export const unlockTool: PdfTool = {
  name: 'unlock',
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    const password = typeof options.password === 'string' ? options.password : ''
    return withWorkDir(ctx, async (work) => {
      const file = await work.place('in-1.pdf', source)
      const unchanged = async (known?: number) => {
        const pages = known ?? (await pageCount(work, file, 'the source', ctx.signal))
        requireWithinPageLimit(pages, ctx.maxPages, 'the source')
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
      // the password check (with the page count) and the decryption run side by side; the check decides
      const [check, decrypted] = await Promise.allSettled([
        passwordCheck(work, file, password, ctx.signal),
        qpdfStep([job], work, ctx.signal),
      ])
      if (check.status === 'rejected') throw check.reason
      requireWithinPageLimit(check.value.pages, ctx.maxPages, 'the source')
      if (!check.value.encrypted) return unchanged(check.value.pages)
      if (decrypted.status === 'rejected') throw decrypted.reason
      ctx.log('decrypted')
      return { files: [{ format: 'pdf', bytes: await work.read('unlocked.pdf'), pages: check.value.pages }] }
    })
  },
}

/**
 * Whether the file is encrypted and, when it is, whether the password is its user or owner
 * password, with the page count, in one qpdf run. qpdf opens a file without a user password
 * whatever is supplied, so the answer must name the password as one of the two; anything else
 * is a wrong password.
 */
async function passwordCheck(
  work: WorkDir,
  file: string,
  password: string,
  signal: AbortSignal,
): Promise<{ encrypted: boolean; pages: number }> {
  const job = await qpdfJob(work, 'check', { inputFile: file, password, showEncryption: '', showNpages: '' })
  const result = await qpdf([job], signal, work.root)
  // the page count comes first, when the file opened
  const pages = Number.parseInt(result.stdout, 10)
  const opened = result.code !== 2 && Number.isInteger(pages)
  if (opened && /file is not encrypted/i.test(result.stdout)) return { encrypted: false, pages }
  if (opened && /supplied password is (user|owner) password/i.test(result.stdout)) {
    return { encrypted: true, pages }
  }
  if (result.code === 2 && !isPasswordFailure(result)) {
    throw unreadablePdf('the source', result)
  }
  throw new ProblemError('pdf_password_required', 'The password is neither the user nor the owner password.')
}
