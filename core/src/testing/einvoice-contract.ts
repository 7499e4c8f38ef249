import { Value } from 'typebox/value'
import { beforeAll, describe, expect, it } from 'vitest'
import type { EinvoiceModel, EinvoiceProfile } from '../sdk/einvoice-contracts.ts'

// The suite every e-invoice profile passes: model rules before XML (einvoice_invalid with JSON
// Pointers), XML its own validators accept in each syntax it declares, a TEST mark on test
// renders, and file names that stay file names.

export interface EinvoiceProfileSubject {
  profile: EinvoiceProfile
  /** a model that meets every rule of the profile */
  validModel: EinvoiceModel
  /** its invoice number (BT-1), which the XML and the default file name carry */
  invoiceNumber: string
  /** a model that fits the schema but breaks a business rule, and that rule's id */
  invalidModel: EinvoiceModel
  violatedRuleId: string
  /** whether test XML differs from live XML (a TEST note; MINIMUM has none) */
  testMarked: boolean
}

export function runEinvoiceProfileContract(name: string, setup: () => Promise<EinvoiceProfileSubject>): void {
  describe(`e-invoice profile contract: ${name}`, () => {
    let subject: EinvoiceProfileSubject
    beforeAll(async () => {
      subject = await setup()
    })

    it('declares its syntaxes and a model schema both models fit', () => {
      expect(subject.profile.syntaxes.length).toBeGreaterThan(0)
      for (const syntax of subject.profile.syntaxes) expect(['cii', 'ubl']).toContain(syntax)
      expect(Value.Check(subject.profile.modelSchema, subject.validModel)).toBe(true)
      expect(Value.Check(subject.profile.modelSchema, subject.invalidModel)).toBe(true)
    })

    it('finds no error in the valid model, and names the broken rule with a JSON Pointer', () => {
      expect(subject.profile.checkModel(subject.validModel).filter((f) => f.severity === 'error')).toEqual([])
      const errors = subject.profile.checkModel(subject.invalidModel).filter((f) => f.severity === 'error')
      expect(errors.map((f) => f.ruleId)).toContain(subject.violatedRuleId)
      for (const finding of errors) expect(finding.location ?? '').toMatch(/^\//)
    })

    it('writes XML in each syntax that its validators accept', async () => {
      for (const syntax of subject.profile.syntaxes) {
        const xml = subject.profile.writeXml(subject.validModel, { syntax, test: false })
        const text = new TextDecoder('utf-8', { fatal: true }).decode(xml)
        expect(text.startsWith('<?xml')).toBe(true)
        expect(text).toContain(subject.invoiceNumber)
        for (const validator of subject.profile.xmlValidators.filter((v) => v.syntaxes.includes(syntax))) {
          const report = await validator.validate(xml, { syntax, signal: AbortSignal.timeout(60_000) })
          expect(report.errors, `${validator.id} on ${syntax}`).toEqual([])
          expect(report.valid).toBe(true)
        }
      }
    })

    it('has its validators refuse broken XML', async () => {
      for (const syntax of subject.profile.syntaxes) {
        const xml = subject.profile.writeXml(subject.validModel, { syntax, test: false })
        const broken = xml.subarray(0, Math.floor(xml.length / 2))
        for (const validator of subject.profile.xmlValidators.filter((v) => v.syntaxes.includes(syntax))) {
          const report = await validator
            .validate(broken, { syntax, signal: AbortSignal.timeout(60_000) })
            .catch(() => undefined)
          if (report) expect(report.valid, `${validator.id} passed half a file`).toBe(false)
        }
      }
    })

    it('marks test XML when the profile allows a note', () => {
      const syntax = subject.profile.syntaxes[0]!
      const live = subject.profile.writeXml(subject.validModel, { syntax, test: false })
      const test = subject.profile.writeXml(subject.validModel, { syntax, test: true })
      expect(test.equals(live)).toBe(!subject.testMarked)
    })

    it('names files safely, always ending in .xml', () => {
      const { profile, validModel, invoiceNumber } = subject
      const byNumber = profile.filename(validModel, null)
      expect(byNumber).toMatch(/\.xml$/)
      expect(byNumber).toContain(invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, '_'))
      for (const requested of ['../../etc/passwd', 'report.pdf', 'a\\b.xml']) {
        const named = profile.filename(validModel, requested)
        expect(named).toMatch(/^[^/\\]+\.xml$/)
        expect(named.startsWith('.')).toBe(false)
      }
    })
  })
}
