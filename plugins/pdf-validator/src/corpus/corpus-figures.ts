import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { ConformanceProfile, ConformanceReport } from '@docsvc/core/sdk'
import { profileRules } from '../profile/load-profile.ts'

// The veraPDF corpus sample (../shared/verapdf-corpus, see its README): which files must pass,
// which must fail and for which clause; and the figures docs/conformance.md shows.

export interface CorpusFile {
  path: string
  profile: ConformanceProfile
  clause: string
  expected: 'pass' | 'fail'
}

const PROFILES: Record<string, ConformanceProfile> = {
  'PDF/A-2b': 'pdfa-2b',
  'PDF/A-3b': 'pdfa-3b',
  'PDF/UA-1': 'pdfua-1',
}

export function corpusFiles(root: string): CorpusFile[] {
  const lines = readFileSync(path.join(root, 'expected.tsv'), 'utf8').trim().split('\n').slice(1)
  return lines.map((line) => {
    const [file, profile, clause, , expected] = line.split('\t')
    const p = PROFILES[profile ?? '']
    if (!file || !p || !clause || (expected !== 'pass' && expected !== 'fail'))
      throw new Error(`expected.tsv: bad row ${line}`)
    return { path: file, profile: p, clause, expected }
  })
}

export interface Outcome {
  file: CorpusFile
  report: ConformanceReport
}

// the corpus names ISO's sub-clause (6.2.8.1) where a profile's rule may name its parent (6.2.8)
const underClause = (ruleClause: string | undefined, clause: string) =>
  ruleClause !== undefined &&
  (ruleClause === clause || ruleClause.startsWith(`${clause}.`) || clause.startsWith(`${ruleClause}.`))

/** a pass file is clean when no rule reports an error */
export const isClean = (o: Outcome) => o.report.errors.length === 0
/** a fail file is caught when the report fails it (the corpus README's criterion) */
export const isCaught = (o: Outcome) => !o.report.valid
/** ... and caught by its clause when a rule of the clause it tests is among the errors */
/** the rule ids a built-in report lists (the SDK also lets an external validator give a count) */
export function checkedRuleIds(report: ConformanceReport): string[] {
  return Array.isArray(report.rulesChecked) ? report.rulesChecked : []
}

export const isCaughtByClause = (o: Outcome) =>
  o.report.errors.some((f) => underClause(f.clause, o.file.clause))

function missReason(o: Outcome): string {
  const rules = profileRules(o.file.profile).filter((r) => underClause(r.clause, o.file.clause))
  const checked = new Set(checkedRuleIds(o.report))
  const open = rules.filter((r) => !checked.has(r.id)).map((r) => r.id)
  const other = o.report.errors.map((f) => f.ruleId)
  const parts = [
    open.length > 0
      ? `rules of the clause not yet covered: ${open.join(', ')}`
      : 'every rule of the clause is checked and none failed',
  ]
  if (other.length > 0) parts.push(`failed only other rules: ${[...new Set(other)].join(', ')}`)
  return parts.join('; ')
}

export interface ProfileFigures {
  passClean: number
  passTotal: number
  failCaught: number
  failByClause: number
  failTotal: number
}

export function figures(outcomes: readonly Outcome[]): ProfileFigures {
  const pass = outcomes.filter((o) => o.file.expected === 'pass')
  const fail = outcomes.filter((o) => o.file.expected === 'fail')
  return {
    passClean: pass.filter(isClean).length,
    passTotal: pass.length,
    failCaught: fail.filter(isCaught).length,
    failByClause: fail.filter(isCaughtByClause).length,
    failTotal: fail.length,
  }
}

/** the rules checked on some file of the profile (a file whose glyphs cannot be read yet drops the Glyph rules) */
function checkedRules(outcomes: readonly Outcome[]): Set<string> {
  return new Set(outcomes.flatMap((o) => checkedRuleIds(o.report)))
}

const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`)

export function conformanceMarkdown(outcomes: readonly Outcome[]): string {
  const out: string[] = [
    '# Conformance: the built-in validator against the veraPDF corpus',
    '',
    'Written by `plugins/pdf-validator/src/corpus/conformance-corpus.test.ts` (do not edit by hand). The',
    "validator (`@docsvc/plugin-pdf-validator`) evaluates veraPDF's own validation profiles (PDFA-2B.xml,",
    'PDFA-3B.xml, PDFUA-1.xml) over its model of the PDF; it claims only the rules whose object type and',
    'properties it models (the `rulesChecked` of every report). The corpus is the even-numbered half of',
    "veraPDF's test corpus (`../shared/verapdf-corpus`): a **pass** file is clean when the report has no",
    "error; a **fail** file is caught when the report fails it (the corpus README's criterion), and",
    '*by its clause* when a rule of the clause it tests is among the errors.',
    '',
    '| profile | rules checked / in profile | pass files clean | fail files caught | of which by their clause |',
    '| --- | --- | --- | --- | --- |',
  ]
  const profiles = [...new Set(outcomes.map((o) => o.file.profile))]
  for (const p of profiles) {
    const mine = outcomes.filter((o) => o.file.profile === p)
    const f = figures(mine)
    const checked = checkedRules(mine).size
    out.push(
      `| ${p} | ${checked} / ${profileRules(p).length} | ${f.passClean} / ${f.passTotal} (${pct(f.passClean, f.passTotal)}) | ${f.failCaught} / ${f.failTotal} (${pct(f.failCaught, f.failTotal)}) | ${f.failByClause} |`,
    )
  }
  for (const p of profiles) {
    const mine = outcomes.filter((o) => o.file.profile === p)
    out.push(
      '',
      `## ${p} per clause`,
      '',
      '| clause | pass files clean | fail files caught (by their clause) |',
      '| --- | --- | --- |',
    )
    const clauses = [...new Set(mine.map((o) => o.file.clause))].sort((a, b) =>
      a.localeCompare(b, 'en', { numeric: true }),
    )
    for (const c of clauses) {
      const f = figures(mine.filter((o) => o.file.clause === c))
      out.push(
        `| ${c} | ${f.passTotal ? `${f.passClean} / ${f.passTotal}` : '–'} | ${f.failTotal ? `${f.failCaught} / ${f.failTotal} (${f.failByClause})` : '–'} |`,
      )
    }
    const misses = mine.filter((o) => o.file.expected === 'fail' && !isCaught(o))
    const dirty = mine.filter((o) => o.file.expected === 'pass' && !isClean(o))
    if (dirty.length > 0) {
      out.push('', `### ${p}: pass files with findings`, '')
      for (const o of dirty)
        out.push(
          `- \`${path.basename(o.file.path)}\`: ${[...new Set(o.report.errors.map((f) => f.ruleId))].join(', ')}`,
        )
    }
    if (misses.length > 0) {
      out.push('', `### ${p}: fail files not caught`, '')
      for (const o of misses) out.push(`- \`${path.basename(o.file.path)}\`: ${missReason(o)}`)
    }
  }
  for (const p of profiles) {
    const checked = checkedRules(outcomes.filter((o) => o.file.profile === p))
    const open = profileRules(p).filter((r) => !checked.has(r.id))
    out.push(
      '',
      `## ${p}: rules not yet covered (${open.length})`,
      '',
      open.map((r) => `${r.id} (${r.object})`).join(', '),
    )
  }
  return `${out.join('\n')}\n`
}
