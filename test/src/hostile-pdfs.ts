import { constants, deflateRawSync } from 'node:zlib'

// Hostile PDFs for the hostile-documents suite, written byte by byte (no PDF library would write
// them): a compressed-stream bomb, a cyclic page tree. Each is small on the wire.

/** A PDF of numbered objects (`1 0 obj` ...), with its xref table and a trailer naming /Root 1. */
export function rawPdf(objects: (string | Buffer)[], trailer = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  const offsets: number[] = []
  let length = parts[0]!.length
  for (const [i, body] of objects.entries()) {
    offsets.push(length)
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.from(body),
      Buffer.from('\nendobj\n'),
    ])
    parts.push(object)
    length += object.length
  }
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n')
  return Buffer.concat([...parts, Buffer.from(xref)])
}

const PIECE_BYTES = 16 * 1024 * 1024

/**
 * A zlib stream that inflates to `mib` MiB of zeros while ~16 KB per 16 MiB on the wire: one
 * deflated block of zeros ending in a full flush (byte-aligned, no reference before it) repeated,
 * then an empty final block and the Adler-32 of the zeros (b = length mod 65521, a = 1).
 */
export function zeroBomb(mib: number): Buffer {
  const piece = deflateRawSync(Buffer.alloc(PIECE_BYTES), { finishFlush: constants.Z_FULL_FLUSH })
  const pieces = Math.ceil((mib * 1024 * 1024) / PIECE_BYTES)
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE((((pieces * PIECE_BYTES) % 65521) * 65536 + 1) >>> 0)
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array(pieces).fill(piece),
    Buffer.from([0x03, 0x00]),
    adler,
  ])
}

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ])
}

/** One page whose XMP /Metadata stream inflates to `mib` MiB: read when the metadata is set. */
export function metadataBombPdf(mib = 4096): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE,
    stream('/Type /Metadata /Subtype /XML /Filter /FlateDecode', zeroBomb(mib)),
  ])
}

/** One page whose content stream inflates to `mib` MiB: read by anything that draws the page. */
export function contentBombPdf(mib = 4096): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
    stream('/Filter /FlateDecode', zeroBomb(mib)),
  ])
}

/** A page tree whose second /Pages node lists its own ancestor among its /Kids. */
export function cyclicPageTreePdf(): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    PAGE,
    '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
  ])
}

/** `pages` empty pages in one flat page tree (10,000 take ~0.6 MB and a few ms to write). */
export function manyPagesPdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ')
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array<string>(pages).fill(PAGE),
  ])
}
