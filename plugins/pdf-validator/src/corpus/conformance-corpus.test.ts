import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { stopValidatorWorkers } from '../validator-workers.ts'
import { pdfaValidator, pdfuaValidator } from '../validators.ts'
import {
  type CorpusFile,
  checkedRuleIds,
  conformanceMarkdown,
  corpusFiles,
  figures,
  isClean,
  type Outcome,
} from './corpus-figures.ts'

// The validator against the reference, not against itself: every file of the veraPDF corpus
// sample with its profile. Pass files must come out clean; fail files must be caught at least
// at the ratchet below (raise it as rules are added, never lower it). Writes docs/conformance.md.

const CORPUS = '/work/shared/verapdf-corpus'
const DOC = fileURLToPath(new URL('../../../../docs/conformance.md', import.meta.url))

/** fail files caught per profile, at least (what the validator reached; target 95 %) */
const CATCH_RATCHET: Record<string, number> = { 'pdfa-2b': 0.976, 'pdfa-3b': 1, 'pdfua-1': 0.96 }

const validatorFor = (file: CorpusFile) => (file.profile === 'pdfua-1' ? pdfuaValidator : pdfaValidator)

describe.skipIf(!existsSync(CORPUS))('veraPDF corpus', () => {
  afterAll(() => stopValidatorWorkers())

  it('passes every pass file, catches fail files at the ratchet, and writes docs/conformance.md', async () => {
    const files = corpusFiles(CORPUS)
    expect(files.length).toBeGreaterThan(400)
    // the pool runs as many at once as it has threads; the rest wait in line
    const outcomes: Outcome[] = await Promise.all(
      files.map(async (file) => ({
        file,
        report: await validatorFor(file).validate(readFileSync(path.join(CORPUS, file.path)), {
          signal: AbortSignal.timeout(600_000),
          profile: file.profile,
        }),
      })),
    )
    writeFileSync(DOC, conformanceMarkdown(outcomes))

    const dirty = outcomes.filter((o) => o.file.expected === 'pass' && !isClean(o))
    expect(dirty.map((o) => `${o.file.path}: ${o.report.errors.map((f) => f.ruleId).join(', ')}`)).toEqual([])
    for (const [profile, ratchet] of Object.entries(CATCH_RATCHET)) {
      const f = figures(outcomes.filter((o) => o.file.profile === profile))
      expect(f.failCaught / f.failTotal, profile).toBeGreaterThanOrEqual(ratchet)
    }
    // every report says which rules it covers, and never more than the profile has
    for (const o of outcomes) expect(checkedRuleIds(o.report).length).toBeGreaterThan(0)
  }, 600_000)
})
