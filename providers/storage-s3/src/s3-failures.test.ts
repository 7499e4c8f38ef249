import { describe, expect, it } from 'vitest'
import { s3Failure } from './s3-failures.ts'

// Answers s3rver cannot give (it has no bucket policies, regions or throttling), in the shape
// the AWS SDK throws them: the classification is a pure function of that shape.
const where = { bucket: 'acme-invoices', host: 's3.eu-central-1.amazonaws.com' }
const sdkError = (name: string, status: number) =>
  Object.assign(new Error('provider text'), { name, $metadata: { httpStatusCode: status } })

describe('S3 failures as a user reads them', () => {
  it.each([
    [sdkError('AccessDenied', 403), 'write', 'permanent', 'write_denied', /may not write .*s3:PutObject/],
    [sdkError('AccessDenied', 403), 'delete', 'permanent', 'delete_denied', /s3:DeleteObject/],
    [sdkError('PermanentRedirect', 301), 'write', 'permanent', 'wrong_region', /set config.region/],
    [sdkError('SlowDown', 503), 'write', 'transient', 'rate_limited', /throttling/],
    [sdkError('InternalError', 500), 'read', 'transient', 'unavailable', /HTTP 500|InternalError/],
    [
      Object.assign(new Error('x'), { code: 'EAI_AGAIN' }),
      'write',
      'transient',
      'dns_failure',
      /does not resolve/,
    ],
    [
      Object.assign(new Error('x'), { code: 'CERT_HAS_EXPIRED' }),
      'write',
      'transient',
      'tls_error',
      /certificate/,
    ],
  ] as const)('%s while %s: %s %s', (error, operation, kind, code, message) => {
    const failure = s3Failure(error, operation, where)
    expect({ kind: failure.kind, code: failure.code }).toEqual({ kind, code })
    expect(failure.message).toMatch(message)
  })
})
