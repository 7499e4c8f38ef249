import { readFileSync } from 'node:fs'
import { constants, deflateRawSync } from 'node:zlib'
import { ProblemError } from '@docsvc/core/sdk'
import { afterAll, describe, expect, it } from 'vitest'
import { configureValidatorWorkers, stopValidatorWorkers } from './validator-workers.ts'
import { pdfaValidator } from './validators.ts'

// A hostile PDF ends its validation thread with a problem, never the process: the next
// validation runs as usual.

/** a zlib stream of `mib` MiB of zeros, a few KB per 16 MiB on the wire */
function zeroBomb(mib: number): Buffer {
  const pieceBytes = 16 * 1024 * 1024
  const piece = deflateRawSync(Buffer.alloc(pieceBytes), { finishFlush: constants.Z_FULL_FLUSH })
  const pieces = Math.ceil(mib / 16)
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE((((pieces * pieceBytes) % 65521) * 65536 + 1) >>> 0)
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array(pieces).fill(piece),
    Buffer.from([0x03, 0x00]),
    adler,
  ])
}

/** one page whose content stream inflates to `mib` MiB */
function contentBomb(mib: number): Buffer {
  const data = zeroBomb(mib)
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
  ].map((o) => Buffer.from(o))
  objects.push(
    Buffer.concat([
      Buffer.from(`<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n`),
      data,
      Buffer.from('\nendstream'),
    ]),
  )
  const parts = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  const offsets: number[] = []
  let length = parts[0]!.length
  for (const [i, body] of objects.entries()) {
    offsets.push(length)
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')])
    parts.push(obj)
    length += obj.length
  }
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
  ]
  const tail = [
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ]
  return Buffer.concat([...parts, Buffer.from([...xref, ...tail].join('\n'))])
}

const CONFORMING =
  '/work/shared/verapdf-corpus/PDF_A-2b/6.1 File structure/6.1.2 File header/veraPDF test suite 6-1-2-t02-pass-a.pdf'

describe('hostile files', () => {
  afterAll(async () => {
    configureValidatorWorkers({ workerBuffersMb: 512, workerHeapMb: 512 })
    await stopValidatorWorkers()
  })

  it('a compressed-stream bomb fails its validation with a problem, and the next validation runs', async () => {
    configureValidatorWorkers({ workerBuffersMb: 64, workerHeapMb: 128 })
    const options = { signal: AbortSignal.timeout(120_000), profile: 'pdfa-2b' as const }
    const outcome = await pdfaValidator.validate(contentBomb(2048), options).then(
      () => 'passed',
      (err: unknown) => err,
    )
    expect(outcome).toBeInstanceOf(ProblemError)
    expect((outcome as ProblemError).code).toBe('invalid_pdf_source')
    const next = await pdfaValidator.validate(readFileSync(CONFORMING), options)
    expect(next.errors).toEqual([])
  }, 180_000)
})
