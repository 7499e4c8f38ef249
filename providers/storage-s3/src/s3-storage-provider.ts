import { randomBytes } from 'node:crypto'
import { open } from 'node:fs/promises'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type StorageClass,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import {
  type ByteSource,
  checkStoragePut,
  type OutboundGuardApi,
  type ProbeOptions,
  type ProbeReport,
  runProbeSteps,
  StorageFailure,
  type StorageLimits,
  type StorageProvider,
  type StoragePutOptions,
  type StoredObject,
  sourceBytes,
  sourceSize,
} from '@docsvc/core/sdk'
import { guardedAgents } from './guarded-agents.ts'
import { endpointUrl, type S3Addressing } from './s3-addressing.ts'
import { type S3Operation, s3Failure } from './s3-failures.ts'
import type { S3Credentials } from './s3-storage-config.ts'

/** Files larger than this go up in parts of this size (S3 takes parts of 5 MiB and more). */
export const MULTIPART_THRESHOLD = 8 * 1024 * 1024
export const PART_SIZE = 8 * 1024 * 1024

export const S3_LIMITS: StorageLimits = {
  // 10,000 parts (S3's maximum) of PART_SIZE
  maxObjectBytes: 10_000 * PART_SIZE,
  // S3's key limit
  maxPathBytes: 1024,
}

export interface S3StorageSettings {
  bucket: string
  addressing: S3Addressing
  credentials: S3Credentials
  storageClass?: StorageClass
  guard: OutboundGuardApi
}

/** One S3 or S3-compatible destination's uploader. */
export class S3StorageProvider implements StorageProvider {
  readonly limits = S3_LIMITS
  readonly #client: S3Client
  readonly #settings: S3StorageSettings
  readonly #endpoint: URL
  readonly #agents: ReturnType<typeof guardedAgents>

  constructor(settings: S3StorageSettings) {
    this.#settings = settings
    this.#endpoint = endpointUrl(settings.addressing)
    this.#agents = guardedAgents(settings.guard, this.#endpoint.protocol, this.#endpoint.port)
    this.#client = new S3Client({
      region: settings.addressing.region,
      ...(settings.addressing.endpoint ? { endpoint: settings.addressing.endpoint } : {}),
      forcePathStyle: settings.addressing.forcePathStyle,
      credentials: {
        accessKeyId: settings.credentials.access_key_id,
        secretAccessKey: settings.credentials.secret_access_key,
      },
      // S3-compatible servers vary in their support of the newer default checksums
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        ...this.#agents,
        connectionTimeout: 5_000,
        requestTimeout: 120_000,
      },
      // retries belong to the delivery job (with backoff across minutes), not to one attempt
      maxAttempts: 1,
    })
  }

  async put(
    file: ByteSource,
    path: string,
    contentType: string,
    options: StoragePutOptions,
  ): Promise<StoredObject> {
    const size = sourceSize(file)
    checkStoragePut(this.limits, path, size)
    const { bucket, storageClass } = this.#settings
    const common = {
      Bucket: bucket,
      Key: path,
      ContentType: contentType,
      ...(storageClass ? { StorageClass: storageClass } : {}),
      ...(options.metadata ? { Metadata: options.metadata } : {}),
    }
    return this.#call('write', options.signal, async () => {
      const etag =
        size > MULTIPART_THRESHOLD
          ? await this.#multipart(file, size, common, options.signal)
          : (
              await this.#client.send(
                new PutObjectCommand({ ...common, Body: await sourceBytes(file), ContentLength: size }),
                { abortSignal: options.signal },
              )
            ).ETag
      return { location: `s3://${bucket}/${path}`, size, ...(etag ? { etag } : {}) }
    })
  }

  /** Write, read back and delete a small object (SPEC 4.7), in the configured storage class. */
  probe(options: ProbeOptions): Promise<ProbeReport> {
    const key = `docsvc-test-${randomBytes(8).toString('hex')}.txt`
    const body = Buffer.from(`docsvc destination test ${new Date().toISOString()}\n`)
    let written = false
    return runProbeSteps([
      [
        'write',
        async () => {
          await this.put({ bytes: body }, key, 'text/plain', options)
          written = true
          return `wrote ${key} to bucket ${this.#settings.bucket}`
        },
      ],
      [
        'read',
        async () => {
          try {
            const read = await this.#read(key, options.signal)
            if (!read.equals(body))
              throw new StorageFailure(
                'permanent',
                'unavailable',
                `${key} read back different bytes than were written`,
                {
                  code: 'read_mismatch',
                },
              )
            return `read ${key} back`
          } catch (err) {
            // the delete step will not run: remove the object anyway, best effort
            if (written) await this.#delete(key, options.signal).catch(() => {})
            throw err
          }
        },
      ],
      [
        'delete',
        async () => {
          await this.#delete(key, options.signal)
          return `deleted ${key}`
        },
      ],
    ])
  }

  async close(): Promise<void> {
    this.#client.destroy()
    this.#agents.httpAgent.destroy()
    this.#agents.httpsAgent.destroy()
  }

  #read(key: string, signal: AbortSignal): Promise<Buffer> {
    return this.#call('read', signal, async () => {
      const out = await this.#client.send(new GetObjectCommand({ Bucket: this.#settings.bucket, Key: key }), {
        abortSignal: signal,
      })
      return Buffer.from(await out.Body!.transformToByteArray())
    })
  }

  #delete(key: string, signal: AbortSignal): Promise<void> {
    return this.#call('delete', signal, async () => {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#settings.bucket, Key: key }), {
        abortSignal: signal,
      })
    })
  }

  /** Parts of PART_SIZE read one at a time (a file on disk is never held whole); aborted on failure. */
  async #multipart(
    file: ByteSource,
    size: number,
    common: { Bucket: string; Key: string },
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const send = { abortSignal: signal }
    const { UploadId } = await this.#client.send(new CreateMultipartUploadCommand(common), send)
    const target = { Bucket: common.Bucket, Key: common.Key, UploadId }
    const handle = 'path' in file ? await open(file.path, 'r') : undefined
    try {
      const parts: { ETag: string | undefined; PartNumber: number }[] = []
      for (let offset = 0, number = 1; offset < size; offset += PART_SIZE, number++) {
        const length = Math.min(PART_SIZE, size - offset)
        const body =
          'bytes' in file
            ? file.bytes.subarray(offset, offset + length)
            : await readPart(handle!, offset, length)
        const { ETag } = await this.#client.send(
          new UploadPartCommand({ ...target, PartNumber: number, Body: body, ContentLength: length }),
          send,
        )
        parts.push({ ETag, PartNumber: number })
      }
      const done = await this.#client.send(
        new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: parts } }),
        send,
      )
      return done.ETag
    } catch (err) {
      // parts of an unfinished upload are billed until aborted
      await this.#client.send(new AbortMultipartUploadCommand(target)).catch(() => {})
      throw err
    } finally {
      await handle?.close()
    }
  }

  /** Checks the endpoint before any call (an IP literal skips the agents' lookup), then maps failures. */
  async #call<T>(operation: S3Operation, signal: AbortSignal, run: () => Promise<T>): Promise<T> {
    try {
      if (signal.aborted) throw signal.reason
      await this.#settings.guard.checkUrl(this.#endpoint.href)
      return await run()
    } catch (err) {
      // the SDK reports any abort alike; the signal's reason says whether time ran out
      const cause = signal.aborted ? signal.reason : err
      throw s3Failure(cause, operation, { bucket: this.#settings.bucket, host: this.#endpoint.host })
    }
  }
}

async function readPart(handle: import('node:fs/promises').FileHandle, offset: number, length: number) {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buffer, 0, length, offset)
  if (bytesRead !== length)
    throw new StorageFailure('permanent', 'unavailable', 'the file is shorter than its declared size', {
      code: 'source_truncated',
    })
  return buffer
}
