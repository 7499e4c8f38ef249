import path from 'node:path'
import {
  type ConformanceReport,
  conformanceReport,
  type EinvoiceSyntax,
  type EinvoiceXmlValidator,
  type Finding,
} from '@docsvc/core/sdk'
import { elementPathAt, prefixesOf, qualify, startTags } from './xml-locations.ts'
import { xmllint } from './xmllint.ts'
import { type DocumentRoot, ENTRY_POINTS, ROOTS_OF, rootOf, schemaFolder } from './xsd-schemas.ts'

/** The rule id of every finding of this validator: the XML schema of the syntax. */
export const XSD_RULE = 'XSD'
const SOURCE = 'XSD (libxml2 xmllint)'

// xmllint's message lines: `invoice.xml:12: element Name: Schemas validity error : <message>`
// and `invoice.xml:3: parser error : <message>`
const VALIDITY = /^invoice\.xml:(\d+): element ([^:]+): Schemas validity error : (.*)$/
const PARSER = /^invoice\.xml:(\d+): (?:parser|namespace) error : (.*)$/

/** xmllint's messages as findings: rule `XSD`, the element's XPath (and line), the message. */
export function findingsOf(stderr: string, xml: string): Finding[] {
  const text = xml
  let tags: ReturnType<typeof startTags> | undefined
  const prefixes = prefixesOf(text)
  const findings: Finding[] = []
  for (const line of stderr.split('\n')) {
    const validity = VALIDITY.exec(line)
    if (validity) {
      const [, at, element, message] = validity
      tags ??= startTags(text)
      const xpath = elementPathAt(tags, Number(at), element)
      findings.push({
        ruleId: XSD_RULE,
        severity: 'error',
        message: qualify(message!, prefixes),
        location: xpath ? `${xpath} (line ${at})` : `line ${at}`,
      })
      continue
    }
    const parser = PARSER.exec(line)
    if (parser) {
      findings.push({
        ruleId: XSD_RULE,
        severity: 'error',
        message: `not well-formed XML: ${parser[2]}`,
        location: `line ${parser[1]}`,
      })
    }
  }
  return findings
}

export interface XsdValidatorOptions {
  /** DOCSVC_EINVOICE_ARTIFACTS: a folder of newer schemas with the shipped layout */
  artifactsDir?: string
  /** one xmllint run's limit (the core's validation budget also applies) */
  timeoutMs?: number
}

/**
 * The XSD check of one syntax: the document's root picks the schema (UBL Invoice or
 * CreditNote), xmllint checks it. Findings name the element by XPath with the line xmllint gave.
 */
export function xsdValidator(
  syntax: EinvoiceSyntax,
  options: XsdValidatorOptions = {},
): EinvoiceXmlValidator {
  const folder = schemaFolder(options.artifactsDir)
  const roots = ROOTS_OF[syntax]
  return {
    id: `xsd-${syntax}`,
    syntaxes: [syntax],
    async validate(xml, { signal }): Promise<ConformanceReport> {
      const text = xml.toString('utf8')
      const root = rootOf(text)
      if (!root || !roots.includes(root as DocumentRoot)) {
        return conformanceReport(
          [
            {
              ruleId: XSD_RULE,
              severity: 'error',
              message: `the root element is ${root ?? 'missing'}; ${syntax} XML has ${roots.join(' or ')}`,
              location: '/',
            },
          ],
          { source: SOURCE },
        )
      }
      const schema = path.join(folder, ENTRY_POINTS[root as DocumentRoot])
      const run = await xmllint(xml, schema, {
        signal,
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      })
      if (run.exitCode === 4 || run.exitCode === 5)
        throw new Error(`the schema ${schema} could not be read (xmllint exit ${run.exitCode})`)
      const findings = findingsOf(run.stderr, text)
      if (run.truncated) {
        findings.push({
          ruleId: XSD_RULE,
          severity: 'error',
          message: 'the document breaks the schema in too many places to list',
          location: '/',
        })
      }
      // a failing exit code without a message read here is still a failure
      if (run.exitCode !== 0 && findings.length === 0) {
        findings.push({
          ruleId: XSD_RULE,
          severity: 'error',
          message: `the schema check failed (xmllint exit ${run.exitCode}): ${run.stderr.split('\n')[0] ?? ''}`,
          location: '/',
        })
      }
      return conformanceReport(findings, { source: SOURCE })
    },
  }
}

/** The CII D16B check with the shipped schemas, for a profile's `xmlValidators`. */
export const ciiXsdValidator: EinvoiceXmlValidator = xsdValidator('cii')
/** The UBL 2.1 Invoice and CreditNote check with the shipped schemas. */
export const ublXsdValidator: EinvoiceXmlValidator = xsdValidator('ubl')
