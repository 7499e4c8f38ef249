import { createHmac, hkdfSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ProblemError } from '../kernel/problem-error.ts'
import { type FileUrlClaims, FileUrlSigner } from './file-url-signer.ts'

const SECRET = 's'.repeat(40)
const NOW = Date.parse('2030-01-01T00:00:00Z')

function signer(options: { secretKey?: string; now?: number } = {}) {
  return new FileUrlSigner({
    publicUrl: 'https://files.example.test/',
    secretKey: options.secretKey ?? SECRET,
    now: () => options.now ?? NOW,
  })
}

const claims: FileUrlClaims = {
  key: 'ws_a/rnd_b/file_c.pdf',
  contentType: 'application/pdf',
  filename: 'Rechnung März.pdf',
  disposition: 'attachment',
  expiresAt: new Date(NOW + 3600_000),
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    if (err instanceof ProblemError) return err.code
    throw err
  }
  return undefined
}

describe('FileUrlSigner', () => {
  it('makes URLs under PUBLIC_URL/files whose token gives back every claim', () => {
    const url = signer().url(claims)
    expect(url).toMatch(/^https:\/\/files\.example\.test\/files\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/)
    const token = url.split('/files/')[1]!
    expect(signer().verify(token)).toEqual(claims)
  })

  it('link() counts the lifetime from now and says when it ends', () => {
    const { url, expires_at } = signer().link({
      key: claims.key,
      contentType: 'image/png',
      filename: 'a.png',
      download: false,
      expiresInSeconds: 600,
    })
    expect(expires_at).toBe('2030-01-01T00:10:00.000Z')
    const verified = signer().verify(url.split('/files/')[1]!)
    expect(verified).toMatchObject({ disposition: 'inline', contentType: 'image/png', filename: 'a.png' })
  })

  it('answers 410 file_expired once the expiry is reached', () => {
    const token = signer().token(claims)
    expect(codeOf(() => signer({ now: claims.expiresAt.getTime() - 1000 }).verify(token))).toBeUndefined()
    expect(codeOf(() => signer({ now: claims.expiresAt.getTime() }).verify(token))).toBe('file_expired')
  })

  it('answers the same 404 for a changed payload, a changed signature, another key and garbage', () => {
    const token = signer().token(claims)
    const [payload, signature] = token.split('.') as [string, string]
    const otherFile = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        k: 'ws_z/rnd_z/file_z.pdf',
      }),
    ).toString('base64url')
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`
    const bad = [
      `${otherFile}.${signature}`,
      `${payload}.${flipped}`,
      signer({ secretKey: 't'.repeat(40) }).token(claims),
      `${payload}.`,
      payload,
      'not-a-token',
      '',
      `${payload}.${signature}.extra`,
      `${payload}.${signature}==`,
    ]
    for (const token of bad) {
      let thrown: unknown
      try {
        signer().verify(token)
      } catch (err) {
        thrown = err
      }
      expect(thrown, token).toBeInstanceOf(ProblemError)
      expect((thrown as ProblemError).code).toBe('not_found')
      expect((thrown as ProblemError).detail).toBe('No such file.')
    }
  })

  it('does not say a forged token expired: the signature is checked first', () => {
    const forged = signer({ secretKey: 't'.repeat(40) }).token({ ...claims, expiresAt: new Date(NOW - 1000) })
    expect(codeOf(() => signer().verify(forged))).toBe('not_found')
  })

  it('refuses a well-signed payload of the wrong shape', () => {
    // what a future signing bug could produce: signed, but not claims this version understands
    const key = Buffer.from(hkdfSync('sha256', SECRET, '', 'docsvc file urls v1', 32))
    const payload = Buffer.from(
      JSON.stringify({ k: '../etc/passwd', c: 'text/plain', n: 'x', d: 'i', e: 2e9 }),
    ).toString('base64url')
    const signature = createHmac('sha256', key).update(payload).digest('base64url')
    expect(codeOf(() => signer().verify(`${payload}.${signature}`))).toBe('not_found')
  })

  it('does not sign keys or content types that could not be served', () => {
    expect(() => signer().token({ ...claims, key: '../x.pdf' })).toThrow(/file key/)
    expect(() => signer().token({ ...claims, contentType: 'text/html\r\nX-Evil: 1' })).toThrow(/content type/)
  })

  it('uses a key derived from the secret, not the secret itself', () => {
    const token = signer().token(claims)
    const [payload, signature] = token.split('.') as [string, string]
    expect(createHmac('sha256', SECRET).update(payload).digest('base64url')).not.toBe(signature)
  })
})
