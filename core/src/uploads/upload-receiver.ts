import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import type { IncomingHttpHeaders } from 'node:http'
import path from 'node:path'
import { type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy'
import { causeText, ProblemError, validationProblem } from '../kernel/problem-error.ts'
import { SNIFF_BYTES, type UploadType, uploadTypeOf } from './upload-types.ts'

/** A received file, spooled to local disk while its bytes were counted, hashed and sniffed. */
export interface SpooledUpload {
  path: string
  size: number
  sha256: string
  filename: string
  type: UploadType
  /** hash of the field names, values and file bytes: the idempotency fingerprint of the body */
  bodyDigest: string
}

const FORM_LIMITS = {
  fields: 20,
  fieldSize: 10_000,
  fieldNameSize: 100,
  files: 1,
  parts: 25,
  headerPairs: 100,
}

function fileProblem(code: string, message: string): ProblemError {
  return validationProblem([{ path: '/file', code, message }])
}

function tooLarge(limit: number): ProblemError {
  return new ProblemError('payload_too_large', `The file is larger than ${limit} bytes.`)
}

/** Counts, hashes and keeps the first bytes of a stream passing through. */
class Meter extends Transform {
  size = 0
  readonly head: Buffer[] = []
  #headSize = 0
  readonly #hash = createHash('sha256')
  readonly #limit: number

  constructor(limit: number) {
    super()
    this.#limit = limit
  }

  override _transform(
    chunk: Buffer,
    _enc: BufferEncoding,
    next: (err?: Error | null, data?: Buffer) => void,
  ) {
    this.size += chunk.length
    if (this.size > this.#limit) return next(tooLarge(this.#limit))
    this.#hash.update(chunk)
    if (this.#headSize < SNIFF_BYTES) {
      this.head.push(chunk.subarray(0, SNIFF_BYTES - this.#headSize))
      this.#headSize += Math.min(chunk.length, SNIFF_BYTES - this.#headSize)
    }
    next(null, chunk)
  }

  sha256(): string {
    return this.#hash.digest('hex')
  }
}

/**
 * Reads the multipart body of POST /v1/uploads (`body`: the request's stream, after the plan's
 * body limit): exactly one file in the field `file` (other fields only count towards the
 * fingerprint), at most `limit` bytes, streamed to `spoolDir` and never held in memory whole.
 * The caller removes the spooled file.
 */
export async function receiveUpload(
  body: Readable,
  headers: IncomingHttpHeaders,
  spoolDir: string,
  limit: number,
): Promise<SpooledUpload> {
  await mkdir(spoolDir, { recursive: true })
  const file = path.join(spoolDir, `upload-${randomBytes(12).toString('hex')}`)
  const fields = createHash('sha256')
  let received: (Omit<SpooledUpload, 'bodyDigest' | 'type'> & { head: Buffer; declared: string }) | undefined
  let writing: Promise<void> | undefined
  let problem: ProblemError | undefined
  const refuse = (p: ProblemError) => {
    problem ??= p
  }
  try {
    const form = Busboy({ headers: headers as BusboyHeaders, limits: { ...FORM_LIMITS, fileSize: limit } })
    form.on('field', (name: string, value: string) => fields.update(`field:${name}=${value}\n`))
    form.on(
      'file',
      (name: string, stream: BusboyFileStream, filename: string, _enc: string, mimeType: string) => {
        if (name !== 'file' || writing) {
          refuse(fileProblem('unexpected', `send one file, in the field file (got a file in ${name})`))
          stream.resume()
          return
        }
        const meter = new Meter(limit)
        writing = pipeline(stream, meter, createWriteStream(file, { flags: 'wx' })).then(() => {
          // busboy stops a file at fileSize and marks it truncated instead of failing
          if (stream.truncated) throw tooLarge(limit)
          received = {
            path: file,
            size: meter.size,
            sha256: meter.sha256(),
            filename: cleanName(filename),
            head: Buffer.concat(meter.head),
            declared: mimeType,
          }
        })
        // a failure here surfaces when `writing` is awaited below
        writing.catch(() => {})
      },
    )
    form.on('filesLimit', () => refuse(fileProblem('too_many', 'send exactly one file, in the field file')))
    form.on('partsLimit', () => refuse(fileProblem('too_many', 'the form has too many parts')))
    form.on('fieldsLimit', () => refuse(fileProblem('too_many', 'the form has too many fields')))
    await pipeline(body, form)
    await writing
  } catch (err) {
    await rm(file, { force: true })
    throw formProblem(err)
  }
  try {
    if (problem) throw problem
    if (!received) throw fileProblem('required', 'send the file as multipart form field file')
    if (received.size === 0) throw fileProblem('empty', 'the file is empty')
    const type = uploadTypeOf(
      received.head,
      received.size <= SNIFF_BYTES,
      received.filename,
      received.declared,
    )
    if (!type) {
      throw new ProblemError(
        'unsupported_media_type',
        'Uploads take PDF files and CSV text; this file is neither (the bytes decide, not the name).',
      )
    }
    const { head: _head, declared, ...rest } = received
    // the fingerprint: the fields, then the file's name, type and bytes (by their hash)
    const bodyDigest = fields.update(`file:${rest.filename}:${declared}:${rest.sha256}`).digest('hex')
    return { ...rest, type, bodyDigest }
  } catch (err) {
    await rm(file, { force: true })
    throw err
  }
}

function formProblem(err: unknown): unknown {
  if (err instanceof ProblemError) return err
  // busboy's complaints about a malformed body (no boundary, cut off mid-part)
  const message = (err as Error)?.message ?? ''
  if (/boundary|unexpected end|malformed|multipart|content-type/i.test(message)) {
    // busboy's sentence is logged as the cause; the client reads what to check
    const problem = fileProblem(
      'invalid',
      'the multipart body cannot be read: its boundary is missing or it ends in the middle of a part',
    )
    return new ProblemError(problem.code, problem.detail, { ...problem.extras, internal: causeText(err) })
  }
  return err
}

/** A download name without paths or control characters; `upload` when none was sent. */
function cleanName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? ''
  const cleaned = Array.from(base, (ch) =>
    ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || ch === '"' ? '_' : ch,
  )
    .join('')
    .trim()
    .slice(0, 200)
  return cleaned || 'upload'
}
