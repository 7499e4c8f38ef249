import { describe, expect, it } from 'vitest'
import { einvoiceFilename } from './einvoice-contracts.ts'
import { conformanceReport, orderPostProcessors, type PdfPostProcessPhase } from './pdf-pipeline-contracts.ts'
import { runProbeSteps } from './provider-contracts.ts'
import { checkStoragePut, StorageFailure } from './storage-contracts.ts'

// The rules the SDK keeps in one place for every provider, profile and post-processor.

describe('runProbeSteps', () => {
  it('reports each step, and after the first failure lists the rest as skipped', async () => {
    const report = await runProbeSteps([
      ['write', async () => 'wrote 32 bytes'],
      [
        'read',
        async () => {
          throw new Error('read back 0 bytes')
        },
      ],
      ['delete', async () => undefined],
    ])
    expect(report).toEqual({
      ok: false,
      steps: [
        { name: 'write', ok: true, detail: 'wrote 32 bytes' },
        { name: 'read', ok: false, code: 'failed', detail: 'read back 0 bytes' },
        { name: 'delete', ok: false, skipped: true },
      ],
    })
  })

  it("gives a failed step the provider failure's code, or its reason when it has none", async () => {
    const report = await runProbeSteps([
      [
        'write',
        async () => {
          throw new StorageFailure('permanent', 'not_found', 'bucket acme does not exist', {
            code: 'bucket_not_found',
          })
        },
      ],
    ])
    expect(report.steps).toEqual([
      { name: 'write', ok: false, code: 'bucket_not_found', detail: 'bucket acme does not exist' },
    ])
    expect(new StorageFailure('transient', 'unavailable', 'down').code).toBe('unavailable')
  })
})

describe('checkStoragePut', () => {
  const limits = { maxObjectBytes: 10, maxPathBytes: 20 }
  it('takes a relative path within the limits', () => {
    expect(() => checkStoragePut(limits, 'renders/a.pdf', 10)).not.toThrow()
  })
  it.each([
    ['a'.repeat(21), 'invalid_path'],
    ['renders/../a.pdf', 'invalid_path'],
    ['ok.pdf', 'too_large'],
  ])('refuses %j for good (%s)', (at, reason) => {
    const attempt = () => checkStoragePut(limits, at, 11)
    expect(attempt).toThrow(StorageFailure)
    expect(attempt).toThrow(expect.objectContaining({ kind: 'permanent', reason }))
  })
})

describe('einvoiceFilename', () => {
  it('uses the requested name or the invoice number, made safe, with .xml enforced', () => {
    expect(einvoiceFilename(null, 'INV 2024/007')).toBe('INV_2024_007.xml')
    expect(einvoiceFilename('march.XML', 'x')).toBe('march.xml')
    expect(einvoiceFilename('../../etc/passwd', 'x')).toBe('etc_passwd.xml')
    expect(einvoiceFilename(null, '///')).toBe('invoice.xml')
  })
})

describe('orderPostProcessors', () => {
  it('orders by phase, then order, then id, so protection is always last', () => {
    const step = (id: string, phase: PdfPostProcessPhase, order?: number) => ({
      id,
      phase,
      ...(order ? { order } : {}),
    })
    const ordered = orderPostProcessors([
      step('protect', 'protect'),
      step('pdfa', 'archive'),
      step('test-stamp', 'stamp'),
      step('zz-attach', 'attach'),
      step('attach', 'attach', 2),
      step('einvoice', 'embed'),
      step('pdfua', 'accessibility'),
    ])
    expect(ordered.map((p) => p.id)).toEqual([
      'test-stamp',
      'zz-attach',
      'attach',
      'pdfa',
      'pdfua',
      'einvoice',
      'protect',
    ])
  })
})

describe('conformanceReport', () => {
  it('is valid exactly when no finding is an error', () => {
    const warning = { ruleId: 'BR-DE-21', severity: 'warning' as const, message: 'specification id' }
    const error = { ruleId: '6.2.11.4.1', severity: 'error' as const, message: 'font not embedded' }
    expect(conformanceReport([warning])).toEqual({ valid: true, errors: [], warnings: [warning] })
    expect(conformanceReport([warning, error])).toEqual({
      valid: false,
      errors: [error],
      warnings: [warning],
    })
  })
})
