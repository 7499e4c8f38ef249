import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto'
import { ProblemError } from '../kernel/problem-error.ts'
import { type FileDisposition, safeFilename } from './content-disposition.ts'
import { isFileKey } from './file-key.ts'

/** What a signed file URL grants: one stored object, served as named, until it expires. */
export interface FileUrlClaims {
  /** storage key in the FileStore */
  key: string
  contentType: string
  filename: string
  disposition: FileDisposition
  expiresAt: Date
}

export interface FileUrlSignerOptions {
  /** DOCSVC_PUBLIC_URL, without a trailing slash */
  publicUrl: string
  /** resolveSecretKey(config) */
  secretKey: string
  /** ms since the epoch; tests move the clock */
  now?: () => number
}

interface TokenPayload {
  k: string
  c: string
  n: string
  d: 'i' | 'a'
  /** Unix seconds */
  e: number
}

export const FILE_URL_PATH = '/files'
const SIGNATURE_CHARS = 43 // 32 bytes of HMAC-SHA256, base64url
const TOKEN = new RegExp(`^([A-Za-z0-9_-]{2,8000})\\.([A-Za-z0-9_-]{${SIGNATURE_CHARS}})$`)
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.-]+=("[^"\\\r\n]*"|[\w.-]+))*$/

/**
 * Signed, expiring URLs of hosted files: `${publicUrl}/files/<payload>.<signature>`, the payload
 * being base64url JSON of the claims and the signature HMAC-SHA256 over it. Anyone holding the
 * URL may fetch the file until it expires; nobody can make one for another file.
 */
export class FileUrlSigner {
  readonly #publicUrl: string
  readonly #key: KeyObject
  readonly #now: () => number

  constructor(options: FileUrlSignerOptions) {
    this.#publicUrl = options.publicUrl.replace(/\/+$/, '')
    // a key of its own, derived: the same secret also encrypts credentials at rest
    // (a KeyObject made once: a raw key would be wrapped anew for every signature)
    this.#key = createSecretKey(
      Buffer.from(hkdfSync('sha256', options.secretKey, '', 'docsvc file urls v1', 32)),
    )
    this.#now = options.now ?? Date.now
  }

  /** A URL valid for `expiresInSeconds` from now, with its expiry as render records show it. */
  link(file: {
    key: string
    contentType: string
    filename: string
    download: boolean
    expiresInSeconds: number
  }): { url: string; expires_at: string } {
    const expiresAt = new Date((Math.floor(this.#now() / 1000) + Math.ceil(file.expiresInSeconds)) * 1000)
    const url = this.url({
      key: file.key,
      contentType: file.contentType,
      filename: file.filename,
      disposition: file.download ? 'attachment' : 'inline',
      expiresAt,
    })
    return { url, expires_at: expiresAt.toISOString() }
  }

  url(claims: FileUrlClaims): string {
    return `${this.#publicUrl}${FILE_URL_PATH}/${this.token(claims)}`
  }

  token(claims: FileUrlClaims): string {
    if (!isFileKey(claims.key)) throw new Error(`cannot sign a URL for the file key ${claims.key}`)
    if (!CONTENT_TYPE.test(claims.contentType)) throw new Error(`not a content type: ${claims.contentType}`)
    const payload: TokenPayload = {
      k: claims.key,
      c: claims.contentType,
      // cleaned and capped here: the name rides in the URL
      n: safeFilename(claims.filename),
      d: claims.disposition === 'attachment' ? 'a' : 'i',
      e: Math.floor(claims.expiresAt.getTime() / 1000),
    }
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url')
    return `${encoded}.${this.#sign(encoded).toString('base64url')}`
  }

  /**
   * The claims of a token this installation signed. A malformed token and a wrong signature
   * answer the same 404, so a prober learns nothing; a valid but expired one is 410.
   */
  verify(token: string): FileUrlClaims {
    const match = TOKEN.exec(token)
    if (!match) throw notFound()
    const [, encoded = '', signature = ''] = match
    const given = Buffer.from(signature, 'base64url')
    const expected = this.#sign(encoded)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound()
    const payload = parsePayload(encoded)
    if (!payload) throw notFound()
    const expiresAt = new Date(payload.e * 1000)
    if (this.#now() >= expiresAt.getTime()) {
      throw new ProblemError('file_expired', `This file URL expired at ${expiresAt.toISOString()}.`)
    }
    return {
      key: payload.k,
      contentType: payload.c,
      filename: payload.n,
      disposition: payload.d === 'a' ? 'attachment' : 'inline',
      expiresAt,
    }
  }

  #sign(encoded: string): Buffer {
    return createHmac('sha256', this.#key).update(encoded).digest()
  }
}

function notFound(): ProblemError {
  return new ProblemError('not_found', 'No such file.')
}

// signed by us, so the shape is ours; still checked, in case the signing code ever changes
function parsePayload(encoded: string): TokenPayload | undefined {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  const p = value as Partial<TokenPayload> | null
  const ok =
    typeof p === 'object' &&
    p !== null &&
    typeof p.k === 'string' &&
    isFileKey(p.k) &&
    typeof p.c === 'string' &&
    CONTENT_TYPE.test(p.c) &&
    typeof p.n === 'string' &&
    (p.d === 'i' || p.d === 'a') &&
    Number.isSafeInteger(p.e)
  return ok ? (p as TokenPayload) : undefined
}
