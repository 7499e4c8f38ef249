import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from './cli-test-support.ts'

// `docsvc conformance check` with the validators an installation registers: a third-party
// plugin's (a fixture package written here), veraPDF's (the stand-in of
// core/src/conformance/verapdf/fixtures) and, once it is installed, the built-in one.

const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-conformance-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** a validator plugin as an operator would install one: `violate:<rule>` in a file breaks the rule */
const FIXTURE_PLUGIN = `
const validator = (id, reportKey, profiles) => ({
  id, reportKey, profiles,
  async validate(pdf, { profile }) {
    const text = pdf.toString('latin1')
    const errors = [...text.matchAll(/violate:([\\w.-]+)/g)].map((m) => ({
      ruleId: m[1], severity: 'error', clause: m[1].split('-')[0], page: 2, message: 'breaks ' + m[1],
    }))
    return { valid: errors.length === 0, errors, warnings: [], profile, source: 'fixture 1', rulesChecked: 2 }
  },
})
export default {
  id: 'fixture-validator',
  apiVersion: '^1',
  provides: { conformanceValidators: ['fixture-pdfa', 'fixture-pdfua'] },
  register({ registries }) {
    registries.conformanceValidators.add('fixture-pdfa', validator('fixture-pdfa', 'pdfa', ['pdfa-2b', 'pdfa-3b']))
    registries.conformanceValidators.add('fixture-pdfua', validator('fixture-pdfua', 'pdfua', ['pdfua-1']))
  },
}
`
const pkg = path.join(dir, 'plugins', 'node_modules', 'docsvc-plugin-fixture-validator')
mkdirSync(pkg, { recursive: true })
writeFileSync(
  path.join(pkg, 'package.json'),
  JSON.stringify({ name: 'docsvc-plugin-fixture-validator', type: 'module', exports: './index.js' }),
)
writeFileSync(path.join(pkg, 'index.js'), FIXTURE_PLUGIN)
const WITH_FIXTURE = {
  DOCSVC_PLUGINS: 'docsvc-plugin-fixture-validator',
  DOCSVC_PLUGIN_PATHS: path.join(dir, 'plugins'),
  DOCSVC_DATA_DIR: path.join(dir, 'data'),
}
const STAND_IN = path.join(REPO_ROOT, 'core/src/conformance/verapdf/fixtures/verapdf-stand-in.mjs')

function pdfFile(name: string, extra = ''): string {
  const file = path.join(dir, name)
  writeFileSync(
    file,
    `%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n${extra}\ntrailer << /ID [<a1><b2>] >>\n%%EOF\n`,
  )
  return file
}
const good = pdfFile('good.pdf')
const bad = pdfFile('bad.pdf', '% violate:6.1.3-1')
const notPdf = path.join(dir, 'notes.txt')
writeFileSync(notPdf, 'just text')

describe('docsvc conformance check', () => {
  it('prints pass or fail per file with each finding’s rule, clause, page and message; exit 1 when one fails', async () => {
    const res = await runCli(['conformance', 'check', '--profile', 'pdfa-2b', good, bad], WITH_FIXTURE)
    expect(res.stderr).toBe('')
    expect(res.code).toBe(1)
    expect(res.stdout.split('\n')).toEqual([
      `${good}: pass (pdfa-2b, fixture 1, 2 rules)`,
      `${bad}: fail (pdfa-2b, fixture 1, 2 rules)`,
      '  error 6.1.3-1 (clause 6.1.3, page 2): breaks 6.1.3-1',
      '',
    ])
  }, 60_000)

  it('exits 0 when every file passes', async () => {
    const res = await runCli(['conformance', 'check', '--profile', 'pdfua-1', good], WITH_FIXTURE)
    expect(res.code).toBe(0)
    expect(res.stdout).toContain(`${good}: pass (pdfua-1, fixture 1, 2 rules)`)
  }, 60_000)

  it('prints with --json the report of result.conformance per file', async () => {
    const res = await runCli(['conformance', 'check', '--profile', 'pdfa-3b', bad, '--json'], WITH_FIXTURE)
    expect(res.code).toBe(1)
    expect(JSON.parse(res.stdout)).toEqual([
      {
        file: bad,
        status: 'fail',
        conformance: {
          pdfa: {
            valid: false,
            profile: 'pdfa-3b',
            source: 'fixture 1',
            rules_checked: 2,
            errors: [
              { rule_id: '6.1.3-1', clause: '6.1.3', page: 2, object: null, message: 'breaks 6.1.3-1' },
            ],
            warnings: [],
          },
        },
      },
    ])
  }, 60_000)

  it('exits 2 naming a missing file and a file that is no PDF, and still checks the others', async () => {
    const missing = path.join(dir, 'missing.pdf')
    const res = await runCli(
      ['conformance', 'check', '--profile', 'pdfa-2b', good, missing, notPdf],
      WITH_FIXTURE,
    )
    expect(res.code).toBe(2)
    expect(res.stderr).toContain(`Error: ${missing}: no such file`)
    expect(res.stderr).toContain(`Error: ${notPdf}: not a PDF (no %PDF- header)`)
    expect(res.stdout).toContain(`${good}: pass`)
  }, 60_000)

  it('asks veraPDF first when DOCSVC_VERAPDF_PATH is set', async () => {
    const res = await runCli(['conformance', 'check', '--profile', 'pdfua-1', good, '--json'], {
      ...WITH_FIXTURE,
      DOCSVC_VERAPDF_PATH: STAND_IN,
    })
    expect(res.code).toBe(1)
    const [checked] = JSON.parse(res.stdout)
    expect(checked.conformance.pdfua).toMatchObject({
      source: 'veraPDF 1.26.2',
      rules_checked: 106,
      valid: false,
    })
    expect(checked.conformance.pdfua.errors.map((e: { rule_id: string }) => e.rule_id)).toEqual([
      '5-1',
      '7.1-8',
    ])
  }, 60_000)

  it('refuses with exit 2 when no validator of the profile is installed', async () => {
    const res = await runCli(['conformance', 'check', '--profile', 'pdfa-2b', good], {
      DOCSVC_DATA_DIR: path.join(dir, 'data'),
      // the built-in plugins alone: until the built-in validator is installed, they have none
      DOCSVC_PLUGINS: '',
    })
    if (res.code === 2) expect(res.stderr).toMatch(/No validator for pdfa-2b is installed/)
    else {
      // the built-in validator (plugins/pdf-validator) answers: this file is no PDF/A
      expect(res.code).toBe(1)
      expect(res.stdout).toMatch(/: fail \(pdfa-2b, docsvc/)
    }
  }, 60_000)
})
