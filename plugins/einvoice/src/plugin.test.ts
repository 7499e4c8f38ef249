import type { EinvoiceProfile, PdfPostProcessor, PluginContext } from '@docsvc/core/sdk'
import { describe, expect, it } from 'vitest'
import { einvoicePlugin } from './index.ts'

describe('the einvoice plugin', () => {
  it('registers the six SPEC 4.3 profiles and the embed step it declares', () => {
    const added = new Map<string, EinvoiceProfile>()
    const steps = new Map<string, PdfPostProcessor>()
    const registries = {
      einvoiceProfiles: { add: (key: string, value: EinvoiceProfile) => added.set(key, value) },
      pdfPostProcessors: { add: (key: string, value: PdfPostProcessor) => steps.set(key, value) },
    }
    const host = { einvoice: { artifactsDir: '', validatorUrl: '' } }
    einvoicePlugin.register({ registries, host } as unknown as PluginContext<never>)
    expect([...added.keys()]).toEqual(einvoicePlugin.provides.einvoiceProfiles)
    expect([...steps.keys()]).toEqual(einvoicePlugin.provides.pdfPostProcessors)
    // the hybrid XML goes in after PDF/A-3b is made (decision 0117)
    expect([...steps.values()].map((s) => s.phase)).toEqual(['embed'])
    expect(Object.fromEntries([...added].map(([id, p]) => [id, p.syntaxes]))).toEqual({
      MINIMUM: ['cii'],
      BASIC_WL: ['cii'],
      BASIC: ['cii'],
      EN16931: ['cii', 'ubl'],
      EXTENDED: ['cii'],
      XRECHNUNG: ['cii', 'ubl'],
    })
    // every profile is checked after writing by the official XSD of each syntax
    for (const profile of added.values())
      expect(profile.xmlValidators.flatMap((v) => v.syntaxes)).toEqual(['cii', 'ubl'])
  })
})
