import type { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import type { FileStore } from '@docsvc/core/sdk'

export interface S3FileStoreOptions {
  bucket: string
  /** an S3-compatible endpoint (MinIO, Ceph, R2, ...); empty or absent for AWS */
  endpoint?: string
  region?: string
  /** absent: the SDK's default chain (env, web identity on Kubernetes, instance role) */
  accessKeyId?: string
  secretAccessKey?: string
  /** bucket in the path instead of the host name; most S3-compatible servers want it */
  forcePathStyle?: boolean
  /** prepended to every key, to share a bucket with other data */
  prefix?: string
}

/** Hosted render files in an S3-compatible bucket (cluster mode). */
export class S3FileStore implements FileStore {
  readonly #client: S3Client
  readonly #bucket: string
  readonly #prefix: string

  constructor(options: S3FileStoreOptions) {
    if (!options.bucket) throw new Error('S3 file store: a bucket is required')
    this.#bucket = options.bucket
    this.#prefix = options.prefix ? `${options.prefix.replace(/\/+$/, '')}/` : ''
    const config: S3ClientConfig = {
      region: options.region || 'us-east-1',
      forcePathStyle: options.forcePathStyle ?? false,
      // S3-compatible servers vary in their support of the newer default checksums
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
      maxAttempts: 3,
    }
    if (options.endpoint) config.endpoint = options.endpoint
    if (options.accessKeyId) {
      config.credentials = {
        accessKeyId: options.accessKeyId,
        secretAccessKey: options.secretAccessKey ?? '',
      }
    }
    this.#client = new S3Client(config)
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#objectKey(key),
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    )
  }

  async putStream(key: string, stream: Readable, size: number, contentType: string): Promise<void> {
    // a known length lets one PutObject carry the stream without buffering it
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#objectKey(key),
        Body: stream,
        ContentType: contentType,
        ContentLength: size,
      }),
    )
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    try {
      const out = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: this.#objectKey(key) }),
      )
      // in Node the body is an http.IncomingMessage, a Readable
      return { stream: out.Body as Readable, size: out.ContentLength ?? 0 }
    } catch (err) {
      if (isMissing(err)) return undefined
      throw err
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a key it does not have, so deleting twice is fine
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#objectKey(key) }))
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.#client.destroy()
  }

  #objectKey(key: string): string {
    if (key === '' || key.length > 1024)
      throw new Error(`invalid file key ${JSON.stringify(key.slice(0, 100))}`)
    return this.#prefix + key
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404
}

export function createS3FileStore(options: S3FileStoreOptions): S3FileStore {
  return new S3FileStore(options)
}
