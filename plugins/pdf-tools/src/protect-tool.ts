import { randomBytes } from 'node:crypto'
import type { PdfTool } from '@docsvc/core/sdk'
import { qpdfStep, requireWithinPageLimit, stepWhileCounting, writeClearSource } from './pdf-probe.ts'
import { withWorkDir } from './qpdf.ts'
import { qpdfJob } from './qpdf-job.ts'
import type { FieldProblem, PdfToolContext, PdfToolOutput, PdfToolSource, ToolOptions } from './tool-types.ts'

export interface Permissions {
  print: boolean
  print_high_res: boolean
  copy: boolean
  fill_forms: boolean
  modify: boolean
  annotate: boolean
  assemble: boolean
}

/** SPEC 4.4: unset flags allow printing, copying and form filling, and deny the rest. */
export const DEFAULT_PERMISSIONS: Permissions = {
  print: true,
  print_high_res: true,
  copy: true,
  fill_forms: true,
  modify: false,
  annotate: false,
  assemble: false,
}

const yn = (allowed: boolean) => (allowed ? 'y' : 'n')

/**
 * qpdf's restrictions for AES-256 (R6) encryption, one per permission bit of PDF 32000 Table 22.
 * Extraction for accessibility (bit 10) is not among them: R6 always grants it, which PDF/UA-1
 * 7.16 requires, so `copy: false` never locks out a screen reader (decision 0103).
 */
export function restrictions(given: Partial<Permissions> | null | undefined): Record<string, string> {
  const p = { ...DEFAULT_PERMISSIONS, ...(given ?? {}) }
  return {
    print: !p.print ? 'none' : p.print_high_res ? 'full' : 'low',
    extract: yn(p.copy),
    form: yn(p.fill_forms),
    modifyOther: yn(p.modify),
    annotate: yn(p.annotate),
    assemble: yn(p.assemble),
  }
}

function password(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** `protect` (and the `pdf.protect` render option): AES-256 with a user and/or owner password. */
export const protectTool: PdfTool = {
  name: 'protect',
  check(options: ToolOptions): FieldProblem[] {
    if (password(options.user_password) || password(options.owner_password)) return []
    return [
      { path: '/user_password', code: 'required', message: 'give user_password, owner_password or both' },
    ]
  },
  async run(sources: PdfToolSource[], options: ToolOptions, ctx: PdfToolContext): Promise<PdfToolOutput> {
    const [source] = sources
    if (!source) return { files: [] }
    // without an owner password anyone could lift the restrictions: a random one keeps them
    const owner = password(options.owner_password) ?? randomBytes(24).toString('hex')
    return withWorkDir(ctx, async (work) => {
      const file = await writeClearSource(work, source, ctx.signal)
      const job = await qpdfJob(work, 'protect', {
        inputFile: file,
        outputFile: 'protected.pdf',
        encrypt: {
          userPassword: password(options.user_password) ?? '',
          ownerPassword: owner,
          '256bit': restrictions(options.permissions as Partial<Permissions> | null | undefined),
        },
      })
      // encrypted while the pages are counted; a count over the plan's limit stops it
      const pages = await stepWhileCounting(
        work,
        file,
        ctx.signal,
        (signal) => qpdfStep([job], work, signal),
        (count) => requireWithinPageLimit(count, ctx.maxPages, 'the source'),
      )
      ctx.log(`protected ${pages} pages with AES-256`)
      return { files: [{ format: 'pdf', bytes: await work.read('protected.pdf'), pages }] }
    })
  },
}
