import { Readable } from 'node:stream'

// multipart/form-data bodies for upload tests, built by hand so every byte is under the test's control.

export interface Part {
  name: string
  value: Buffer | string
  filename?: string
  contentType?: string
}

export const BOUNDARY = 'docsvc-test-boundary-7f3a'

export function multipartBody(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`
    const type =
      p.filename !== undefined ? `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n` : ''
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`))
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  }
}

export function fileBody(bytes: Buffer, filename = 'doc.pdf', contentType = 'application/pdf') {
  return multipartBody([{ name: 'file', value: bytes, filename, contentType }])
}

/**
 * A multipart body of one file of `size` bytes, made as it is read and sent without a length
 * (chunked), so neither the test nor the declared length holds it.
 */
export function streamedFileBody(size: number, head = '%PDF-1.7\n') {
  const start = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n${head}`,
  )
  const end = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  const chunk = Buffer.alloc(1024 * 1024, 0x20)
  let left = size - head.length
  const stream = Readable.from(
    (function* () {
      yield start
      while (left > 0) {
        const n = Math.min(left, chunk.length)
        left -= n
        yield chunk.subarray(0, n)
      }
      yield end
    })(),
  )
  return { payload: stream, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }
}
