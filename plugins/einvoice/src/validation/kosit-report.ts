import type { Finding } from '@docsvc/core/sdk'

// The KoSIT validator's report (namespace http://www.xoev.de/de/validator/varl/1, its
// `report.xsd`): `rep:report` with `valid`, `rep:scenarioMatched` (or `rep:noScenarioMatched`)
// holding one `rep:validationStepResult` per step (XSD, Schematron) with `rep:message` elements
// (`code`, `level` error|warning|information, optional `xpathLocation`, `lineNumber`,
// `columnNumber`; the text is the message), and `rep:assessment` with `rep:accept` or
// `rep:reject`. Only those elements are read, by their local names, whatever the prefix.

export interface KositVerdict {
  /** false when the validator had no scenario for the document: it gave no verdict */
  scenarioMatched: boolean
  accepted: boolean
  findings: Finding[]
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10))
    return ENTITIES[entity] ?? whole
  })
}

function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const m of text.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    found.set(m[1]!.replace(/^.*:/, ''), decode(m[2] ?? m[3] ?? ''))
  return found
}

const hasElement = (xml: string, local: string) => new RegExp(`<(?:[\\w.-]+:)?${local}[\\s/>]`).test(xml)

/** The findings of a report; throws when the text is not a KoSIT report. */
export function readKositReport(xml: string): KositVerdict {
  const root = /<(?:[\w.-]+:)?report\b([^>]*)>/.exec(xml)
  if (!root || !xml.includes('http://www.xoev.de/de/validator/varl/1'))
    throw new Error('the answer is not a KoSIT validation report')
  const findings: Finding[] = []
  const message =
    /<(?:[\w.-]+:)?message\b((?:[^>"']|"[^"]*"|'[^']*')*?)(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?message>)/g
  for (const m of xml.matchAll(message)) {
    const attrs = attributes(m[1] ?? '')
    const level = attrs.get('level')
    // information messages say what was checked, not what is wrong
    if (level !== 'error' && level !== 'warning') continue
    const line = attrs.get('lineNumber')
    const column = attrs.get('columnNumber')
    const where =
      attrs.get('xpathLocation') || (line ? `line ${line}${column ? `:${column}` : ''}` : undefined)
    findings.push({
      ruleId: attrs.get('code') || attrs.get('id') || 'KOSIT',
      severity: level,
      message:
        decode(m[2] ?? '')
          .replace(/\s+/g, ' ')
          .trim() || '(no message)',
      ...(where ? { location: where } : {}),
    })
  }
  const accepted = hasElement(xml, 'accept') && !hasElement(xml, 'reject')
  // a rejection with no error message read (a step failed without one) still fails
  if (!accepted && !findings.some((f) => f.severity === 'error')) {
    findings.push({
      ruleId: 'KOSIT',
      severity: 'error',
      message: 'the validator recommends rejecting the document',
    })
  }
  return { scenarioMatched: !hasElement(xml, 'noScenarioMatched'), accepted, findings }
}
