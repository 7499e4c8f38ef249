import { BUSINESS_RULES } from './rule-engine.ts'
import type { UnitTestOutcome } from './unit-test-cases.ts'

// docs/einvoice.md's generated part: the business rules per family and how they fare against
// the official EN 16931 unit tests (its test fails when the document is stale).

/** The test cases the rules do not meet, each with why (the model or its readers cannot tell). */
export const KNOWN_MISSES: Record<string, string> = {
  ...both(
    'BR-CO-15.xml#8',
    'two TaxTotal amounts in one currency: the model holds one BT-110 (the UBL reader lists the second as unread)',
  ),
  'CreditNote-unit-UBL/BR-CO-25.xml#2':
    'a credit note without a type code: the model knows a credit note by its type code (BT-3) only',
  'Invoice-unit-UBL/BR-CO-17.xml#9':
    'a difference of exactly one currency unit, which BR-CO-17 accepts here (decision 0112)',
  'Invoice-unit-UBL/BR-CO-19.xml#4': 'an empty invoice period element: the model holds no empty group',
  'Invoice-unit-UBL/BR-CO-20.xml#4': 'an empty invoice line period element: the model holds no empty group',
  'cii/BR-CO-15-2.xml#3':
    'a total in another currency (currencyID): the model holds amounts without their currency attribute',
  'cii/BR-CO-15-2.xml#4':
    'a total in another currency (currencyID): the model holds amounts without their currency attribute',
}

function both(file: string, reason: string): Record<string, string> {
  return { [`Invoice-unit-UBL/${file}`]: reason, [`CreditNote-unit-UBL/${file}`]: reason }
}

export const caseKey = (o: UnitTestOutcome) => `${o.file}#${o.index}`

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`

export interface Conformance {
  decidable: number
  met: number
  markdown: string
}

export function conformance(outcomes: readonly UnitTestOutcome[]): Conformance {
  const families = new Map<string, { met: number; decidable: number; undecidable: number; reason?: string }>()
  for (const o of outcomes) {
    const f = families.get(o.family) ?? { met: 0, decidable: 0, undecidable: 0 }
    if (o.undecidable) {
      f.undecidable++
      f.reason ??= o.undecidable
    } else {
      f.decidable++
      if (o.passed) f.met++
    }
    families.set(o.family, f)
  }
  for (const rule of BUSINESS_RULES) {
    const family = rule.id.replace(/-\d+$/, '')
    if (!families.has(family)) families.set(family, { met: 0, decidable: 0, undecidable: 0 })
  }
  const decidable = outcomes.filter((o) => !o.undecidable).length
  const met = outcomes.filter((o) => o.passed).length
  const rulesIn = (family: string) =>
    new Set(BUSINESS_RULES.filter((r) => r.id.replace(/-\d+$/, '') === family).map((r) => r.id)).size
  const rows = [...families].map(
    ([family, f]) =>
      `| ${family} | ${rulesIn(family) || '–'} | ${f.decidable ? `${f.met} / ${f.decidable} (${percent(f.met, f.decidable)})` : '–'} | ${f.undecidable ? `${f.undecidable}: ${f.reason}` : f.decidable ? '' : 'no official unit tests'} |`,
  )
  const misses = outcomes
    .filter((o) => o.passed === false)
    .map(
      (o) =>
        `| ${caseKey(o)} | ${o.rule} | ${o.expected} | ${KNOWN_MISSES[caseKey(o)] ?? o.detail ?? 'not explained yet'} |`,
    )
  const markdown = [
    `Official unit tests met: **${met} of ${decidable}** (${percent(met, decidable)}) of the expectations decidable on the model.`,
    '',
    '| family | rules | unit tests met | not decidable on the model |',
    '| --- | --: | --- | --- |',
    ...rows,
    '',
    'The expectations not met, and why:',
    '',
    '| test case | rule | expected | why |',
    '| --- | --- | --- | --- |',
    ...misses,
  ].join('\n')
  return { decidable, met, markdown }
}
