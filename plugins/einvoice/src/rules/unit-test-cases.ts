import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readCii } from '../cii/cii-reader.ts'
import { checkInvoiceModel } from '../model/model-checks.ts'
import { EINVOICE_SHARED } from '../sample-files.ts'
import { readUbl } from '../ubl/ubl-reader.ts'
import { parseXml } from '../xml/xml-tree.ts'

// The official EN 16931 unit tests (CEN/TC 434, UBL) run against the business rules: each
// file is a `<testSet>` of `<test>`s, each an `<assert>` (success or error of a rule) and one
// Invoice or CreditNote; expected.tsv lists them, one line per test.

const UNIT_TESTS = join(EINVOICE_SHARED, 'unit-tests')

/** The unit tests' old names of two families (IGIC, IPSI) and the families the model cannot decide. */
const RENAMED: Record<string, string> = { 'BR-AF': 'BR-IG', 'BR-AG': 'BR-IP' }
const NOT_ON_MODEL: Record<string, string> = {
  'BR-01': "the specification identifier (BT-24) is the profile's, not the model's",
  'BR-CL': 'code list rules: not part of this rule set',
  'UBL-SR': 'UBL syntax rules: about the XML, not the model',
  'UBL-DT': 'UBL data type rules: about the XML, not the model',
}

const DOCUMENTS = ['Invoice', 'CreditNote', 'CrossIndustryInvoice']

export interface UnitTestOutcome {
  file: string
  index: number
  rule: string
  family: string
  expected: 'error' | 'success' | 'warning'
  /** undefined: not decidable on the model (the reason in `undecidable`) */
  passed?: boolean
  undecidable?: string
  detail?: string
}

export function familyOf(rule: string): string {
  const renamed = Object.entries(RENAMED).reduce((r, [from, to]) => r.replace(`${from}-`, `${to}-`), rule)
  const m = /^(BR-[A-Z]+|BR|UBL-[A-Z]+)-/.exec(renamed)
  return m?.[1] ?? renamed
}

export function ruleOf(rule: string): string {
  return Object.entries(RENAMED).reduce((r, [from, to]) => r.replace(`${from}-`, `${to}-`), rule)
}

export function runUnitTests(): UnitTestOutcome[] {
  const rows = readFileSync(join(UNIT_TESTS, 'expected.tsv'), 'utf8').trim().split('\n').slice(1)
  const roots = new Map<string, ReturnType<typeof parseXml>>()
  return rows
    .map((row) => row.split('\t'))
    .filter((cells) => ['error', 'success', 'warning'].includes(cells[5] ?? ''))
    .map(([file = '', , , index = '', , expected = '', rawRule = '']) => {
      const rule = ruleOf(rawRule)
      const family = familyOf(rawRule)
      const outcome: UnitTestOutcome = {
        file,
        index: Number(index),
        rule,
        family,
        expected: expected as UnitTestOutcome['expected'],
      }
      const undecidable = NOT_ON_MODEL[rule] ?? NOT_ON_MODEL[family]
      if (undecidable) return { ...outcome, undecidable }
      const cached = roots.get(file) ?? parseXml(readFileSync(join(UNIT_TESTS, file)))
      roots.set(file, cached)
      const test = cached.children.filter((c) => c.name === 'test')[Number(index) - 1]
      const document = test?.children.find((c) => DOCUMENTS.includes(c.name))
      if (!document) return { ...outcome, passed: false, detail: 'test case not found' }
      let raised: { ruleId: string; severity: string }[]
      try {
        const read = document.name === 'CrossIndustryInvoice' ? readCii(document) : readUbl(document)
        raised = checkInvoiceModel(read.invoice, 'EN16931')
      } catch (error) {
        return { ...outcome, passed: false, detail: `not checkable: ${(error as Error).message}` }
      }
      const hit = raised.some((f) => f.ruleId === rule && (expected === 'success' || f.severity === expected))
      return { ...outcome, passed: expected === 'success' ? !hit : hit }
    })
}
