import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import type { PdfPostProcessor } from '../sdk/pdf-pipeline-contracts.ts'
import { postProcessingProblems } from './conformance-options.ts'

// The request-time conflicts of PDF/A with other PDF options (decision 0109): answered as 400s
// at the field, whatever steps the installation has.

const pdfaStep: PdfPostProcessor = {
  id: 'pdfa',
  phase: 'archive',
  optionsSchema: Type.Object({ pdfa: Type.Union([Type.Literal('2b'), Type.Literal('3b')]) }),
  run: async (pdf) => ({ bytes: pdf }),
}
const attachments = [{ name: 'data.csv', data_uri: 'data:text/csv,a%2Cb' }]
const problemsOf = (options: Record<string, unknown>) =>
  postProcessingProblems([pdfaStep], options, '/output/pdf', () => [])

describe('postProcessingProblems', () => {
  it('refuses PDF/A-2b with attachments at /attachments, naming 3b as the way out', () => {
    expect(problemsOf({ pdfa: '2b', attachments })).toEqual([
      expect.objectContaining({
        path: '/output/pdf/attachments',
        code: 'conflict',
        message: expect.stringContaining("pdfa: '3b'"),
      }),
    ])
  })

  it('takes attachments with PDF/A-3b, and PDF/A-2b without any', () => {
    expect(problemsOf({ pdfa: '3b', attachments })).toEqual([])
    expect(problemsOf({ pdfa: '2b', attachments: [] })).toEqual([])
  })

  it('refuses PDF/A with protect at /protect', () => {
    expect(problemsOf({ pdfa: '3b', protect: { owner_password: 'owner-secret-1' } })).toEqual([
      expect.objectContaining({ path: '/output/pdf/protect', code: 'conflict' }),
    ])
  })
})
