import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { causeText } from '../../kernel/problem-error.ts'
import { definePlugin } from '../../sdk/define-plugin.ts'
import type { ConformanceProfile, ConformanceValidator } from '../../sdk/pdf-pipeline-contracts.ts'
import { runBounded } from './bounded-process.ts'
import { parseVeraPdfJson } from './verapdf-report.ts'

// The operator's veraPDF (DOCSVC_VERAPDF_PATH) as a conformance validator: `verapdf --format
// json --flavour 2b|3b|ua1 FILE`, its JSON report read into findings. Its ids start with
// `verapdf`, so its verdict is asked for first (run-validator.ts); the time budget is the
// caller's signal, which kills the process group (veraPDF is a JVM behind a launcher script).

/** veraPDF's profile codes (`verapdf --list`) */
const FLAVOURS: Record<ConformanceProfile, string> = { 'pdfa-2b': '2b', 'pdfa-3b': '3b', 'pdfua-1': 'ua1' }
/** a report of a long document failing many rules is a few MB; more is a broken run */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024

function veraPdfValidator(
  command: string,
  id: string,
  reportKey: 'pdfa' | 'pdfua',
  profiles: ConformanceProfile[],
): ConformanceValidator {
  return {
    id,
    reportKey,
    profiles,
    async validate(pdf, { signal, profile }) {
      const dir = await mkdtemp(path.join(tmpdir(), 'docsvc-verapdf-'))
      try {
        const file = path.join(dir, 'document.pdf')
        await writeFile(file, pdf)
        const run = await runBounded(command, ['--format', 'json', '--flavour', FLAVOURS[profile], file], {
          signal,
          maxOutputBytes: MAX_OUTPUT_BYTES,
        })
        try {
          return { ...parseVeraPdfJson(run.stdout), profile }
        } catch (err) {
          // what veraPDF said goes with the failure (the caller logs it; no client reads it)
          throw new Error(
            `${causeText(err)} (exit ${run.code}${run.stderr ? `: ${causeText(run.stderr)}` : ''})`,
          )
        }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  }
}

/** The validators of an installed veraPDF, as a built-in plugin of a serving process. */
export function veraPdfPlugin(command: string) {
  return definePlugin({
    id: 'verapdf',
    apiVersion: '^1',
    provides: { conformanceValidators: ['verapdf-pdfa', 'verapdf-pdfua'] },
    register({ registries }) {
      registries.conformanceValidators.add(
        'verapdf-pdfa',
        veraPdfValidator(command, 'verapdf-pdfa', 'pdfa', ['pdfa-2b', 'pdfa-3b']),
      )
      registries.conformanceValidators.add(
        'verapdf-pdfua',
        veraPdfValidator(command, 'verapdf-pdfua', 'pdfua', ['pdfua-1']),
      )
    },
  })
}
