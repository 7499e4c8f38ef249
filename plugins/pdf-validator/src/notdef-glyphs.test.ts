import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stopValidatorWorkers } from './validator-workers.ts'
import { pdfaValidator, pdfuaValidator } from './validators.ts'

// Issue 17: a character no installed font covers prints as .notdef, and the report names the
// rule and the page. Checked on Chromium's own PDF output (Type 0 fonts, Identity-H).

const CHROMIUM = '/usr/bin/chromium'
const run = promisify(execFile)

async function printPdf(dir: string, name: string, html: string): Promise<Buffer> {
  const source = path.join(dir, `${name}.html`)
  const target = path.join(dir, `${name}.pdf`)
  await writeFile(source, html)
  await run(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-pdf-header-footer',
      `--print-to-pdf=${target}`,
      `file://${source}`,
    ],
    {
      timeout: 120_000,
    },
  )
  return readFile(target)
}

describe.skipIf(!existsSync(CHROMIUM))('glyphs no font covers', () => {
  let dir: string
  let covered: Buffer
  let uncovered: Buffer
  const options = { signal: AbortSignal.timeout(120_000) }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'validator-notdef-'))
    // emoji come out as Type 3 fonts: their glyphs are read too
    covered = await printPdf(dir, 'covered', '<p>Hello world \u{1F600}</p>')
    // private-use code points: no font has them, Chromium draws glyph 0
    uncovered = await printPdf(
      dir,
      'uncovered',
      '<p>Hello</p><p style="break-before: page">two \uE000\uE001</p>',
    )
  }, 300_000)

  afterAll(async () => {
    await stopValidatorWorkers()
    await rm(dir, { recursive: true, force: true })
  })

  it('reports .notdef glyphs with their page under PDF/A-2b and PDF/UA-1', async () => {
    const pdfa = await pdfaValidator.validate(uncovered, { ...options, profile: 'pdfa-2b' })
    expect(pdfa.rulesChecked).toContain('6.2.11.8-1')
    expect(pdfa.errors.filter((f) => f.ruleId === '6.2.11.8-1').map((f) => f.page)).toEqual([2])
    const pdfua = await pdfuaValidator.validate(uncovered, { ...options, profile: 'pdfua-1' })
    expect(pdfua.errors.filter((f) => f.ruleId === '7.21.8-1').map((f) => f.page)).toEqual([2])
  }, 120_000)

  it('does not report .notdef when every character has a glyph, emoji included', async () => {
    const pdfa = await pdfaValidator.validate(covered, { ...options, profile: 'pdfa-2b' })
    expect(pdfa.rulesChecked).toContain('6.2.11.8-1')
    expect(pdfa.errors.filter((f) => f.ruleId === '6.2.11.8-1')).toEqual([])
  }, 120_000)
})
