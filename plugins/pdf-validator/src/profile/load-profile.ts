import { readFileSync } from 'node:fs'
import type { ConformanceProfile } from '@docsvc/core/sdk'
import { XMLParser } from 'fast-xml-parser'

// The rules are data: veraPDF's validation profiles, shipped in ../../profiles (see its README
// for source and licence). Each rule names the model object it applies to, its clause and test
// number, a test expression over that object's properties and an error message with arguments.

export interface ProfileRule {
  /** `<clause>-<testNumber>`, e.g. `6.2.11.4.1-1` */
  id: string
  clause: string
  testNumber: string
  /** the model object type the rule applies to, e.g. `PDFont`, `CosDocument` */
  object: string
  description: string
  /** the boolean expression that must hold for every object of the type */
  test: string
  /** the error message, with `%1`, `%2`... standing for the arguments */
  message: string
  /** expressions over the same object, filled into the message */
  arguments: string[]
}

const FILES: Record<ConformanceProfile, string> = {
  'pdfa-2b': 'PDFA-2B.xml',
  'pdfa-3b': 'PDFA-3B.xml',
  'pdfua-1': 'PDFUA-1.xml',
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // every rule, argument and reference as a list even when there is one
  isArray: (name) => name === 'rule' || name === 'argument',
  parseTagValue: false,
  trimValues: true,
})

interface RawRule {
  object: string
  id: { clause: string; testNumber: string }
  description?: string
  test: string
  error?: { message?: string; arguments?: { argument?: unknown[] } | string }
}

const cache = new Map<ConformanceProfile, ProfileRule[]>()

/** The rules of a profile, read once per thread. */
export function profileRules(profile: ConformanceProfile): ProfileRule[] {
  const known = cache.get(profile)
  if (known) return known
  const xml = readFileSync(new URL(`../../profiles/${FILES[profile]}`, import.meta.url), 'utf8')
  const rules = parseProfile(xml)
  cache.set(profile, rules)
  return rules
}

export function parseProfile(xml: string): ProfileRule[] {
  const doc = parser.parse(xml) as { profile?: { rules?: { rule?: RawRule[] } } }
  const raw = doc.profile?.rules?.rule ?? []
  return raw.map((r) => {
    const args = typeof r.error?.arguments === 'object' ? (r.error.arguments.argument ?? []) : []
    return {
      id: `${r.id.clause}-${r.id.testNumber}`,
      clause: r.id.clause,
      testNumber: String(r.id.testNumber),
      object: r.object,
      description: r.description ?? '',
      test: String(r.test),
      message: r.error?.message ?? r.description ?? '',
      arguments: args.map(String),
    }
  })
}
