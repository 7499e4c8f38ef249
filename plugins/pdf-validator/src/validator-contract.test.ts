import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { runConformanceValidatorContract } from '@docsvc/core/testing'
import { afterAll, describe } from 'vitest'
import { stopValidatorWorkers } from './validator-workers.ts'
import { pdfaValidator, pdfuaValidator } from './validators.ts'

// Both validators through the SDK's contract kit, with files of the veraPDF corpus sample.

const CORPUS = '/work/shared/verapdf-corpus'
const file = (p: string) => readFileSync(path.join(CORPUS, p))

describe.skipIf(!existsSync(CORPUS))('pdf-validator contracts', () => {
  afterAll(() => stopValidatorWorkers())

  runConformanceValidatorContract('docsvc PDF/A-2b', async () => ({
    validator: pdfaValidator,
    profile: 'pdfa-2b',
    conforming: file('PDF_A-2b/6.1 File structure/6.1.2 File header/veraPDF test suite 6-1-2-t02-pass-a.pdf'),
    violating: file('PDF_A-2b/6.1 File structure/6.1.2 File header/veraPDF test suite 6-1-2-t02-fail-c.pdf'),
    violatedRuleId: '6.1.2-2',
  }))

  runConformanceValidatorContract('docsvc PDF/A-3b', async () => ({
    validator: pdfaValidator,
    profile: 'pdfa-3b',
    conforming: file('PDF_A-3b/6.8 Embedded files/veraPDF test suite 6-8-t02-pass-a.pdf'),
    violating: file('PDF_A-3b/6.8 Embedded files/veraPDF test suite 6-8-t02-fail-a.pdf'),
    violatedRuleId: '6.8-4',
  }))

  runConformanceValidatorContract('docsvc PDF/UA-1', async () => ({
    validator: pdfuaValidator,
    profile: 'pdfua-1',
    conforming: file('PDF_UA-1/7.1 General/7.1-t04-pass-a.pdf'),
    violating: file('PDF_UA-1/7.1 General/7.1-t04-fail-a.pdf'),
    violatedRuleId: '7.1-4',
  }))
})
