import {
  CONFORMANCE_PROFILES,
  type ConformanceProfile,
  checkPdfFiles,
  type FileCheck,
  loadConformanceValidators,
} from '@docsvc/core'
import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../base-command.ts'

/** where each profile's report sits in a render's `result.conformance` */
const REPORT_KEY: Record<ConformanceProfile, string> = {
  'pdfa-2b': 'pdfa',
  'pdfa-3b': 'pdfa',
  'pdfua-1': 'pdfua',
}

/**
 * Checks PDF files with the validators this installation registers (decision 0111). Exit 0
 * when every file passes, 1 when one fails (or no validator answered for it), 2 when a file
 * cannot be read or is no PDF, or no validator of the profile is installed.
 */
export default class ConformanceCheck extends BaseCommand {
  static override description =
    'Check PDF files against PDF/A-2b, PDF/A-3b or PDF/UA-1 with the installed validators; exit 0 all pass, 1 a file fails, 2 a file cannot be read'
  static override strict = false
  static override args = { file: Args.string({ required: true, description: 'PDF files to check' }) }
  static override flags = {
    profile: Flags.string({
      required: true,
      options: [...CONFORMANCE_PROFILES],
      description: 'the standard to check against',
    }),
  }
  static override examples = [
    'docsvc conformance check --profile pdfa-2b invoice.pdf',
    'docsvc conformance check --profile pdfua-1 *.pdf --json',
  ]

  async run() {
    const { flags, argv } = await this.parse(ConformanceCheck)
    const profile = flags.profile as ConformanceProfile
    const { config, validators, stop } = await loadConformanceValidators(this.env(flags))
    let checks: FileCheck[]
    try {
      if (!validators.some((v) => v.profiles.includes(profile)))
        this.error(
          `No validator for ${profile} is installed: add a plugin that provides one (DOCSVC_PLUGINS) or set DOCSVC_VERAPDF_PATH to a veraPDF install.`,
          { exit: 2 },
        )
      checks = await checkPdfFiles(argv as string[], profile, validators, {
        budgetMs: config.conformanceTimeoutSeconds * 1000,
      })
    } finally {
      await stop()
    }
    for (const check of checks) this.#print(check)
    process.exitCode = checks.some((c) => c.status === 'unreadable')
      ? 2
      : checks.every((c) => c.status === 'pass')
        ? 0
        : 1
    // the shape of a render's result.conformance, per file
    return checks.map(({ file, status, report, reason }) => ({
      file,
      status,
      ...(report ? { conformance: { [REPORT_KEY[profile]]: report } } : {}),
      ...(reason ? { error: reason } : {}),
    }))
  }

  #print({ file, status, report, reason }: FileCheck) {
    if (this.jsonEnabled()) {
      if (status === 'unreadable') process.stderr.write(`Error: ${file}: ${reason}\n`)
      return
    }
    if (!report) {
      if (status === 'unreadable') process.stderr.write(`Error: ${file}: ${reason}\n`)
      // unavailable: no validator answered for this file, which is not a pass
      this.log(`${file}: ${status === 'unreadable' ? 'error' : 'unchecked'} (${reason})`)
      return
    }
    this.log(`${file}: ${status} (${report.profile}, ${report.source}, ${report.rules_checked} rules)`)
    for (const [kind, findings] of [
      ['error', report.errors],
      ['warning', report.warnings],
    ] as const) {
      for (const f of findings) {
        const where = [f.clause ? `clause ${f.clause}` : '', f.page !== null ? `page ${f.page}` : ''].filter(
          Boolean,
        )
        this.log(`  ${kind} ${f.rule_id}${where.length ? ` (${where.join(', ')})` : ''}: ${f.message}`)
      }
    }
  }
}
