import { StorageFailure } from '@docsvc/core/sdk'

// What went wrong with an S3 call, in words a user can act on, classified for the retry policy
// (permanent: fix the destination; transient: retried). The provider's own message is not
// repeated for refused credentials: some servers echo the request's signing details there.

/** What the call was doing: says which permission a 403 lacks. */
export type S3Operation = 'write' | 'read' | 'delete'

interface ErrorShape {
  name?: string
  code?: string
  message?: string
  cause?: unknown
  $metadata?: { httpStatusCode?: number }
}

const TLS_CODE =
  /^(EPROTO$|ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/

function nodeCode(error: ErrorShape): string | undefined {
  let current: ErrorShape | undefined = error
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string' && current.code !== '') return current.code
    current = current.cause as ErrorShape | undefined
  }
  return undefined
}

export function s3Failure(
  error: unknown,
  operation: S3Operation,
  where: { bucket: string; host: string },
): StorageFailure {
  if (error instanceof StorageFailure) return error
  const e = (error ?? {}) as ErrorShape
  const status = e.$metadata?.httpStatusCode
  const fail = (
    kind: 'permanent' | 'transient',
    reason: ConstructorParameters<typeof StorageFailure>[1],
    code: string,
    message: string,
  ) => new StorageFailure(kind, reason, message, { cause: error, code })
  switch (e.name) {
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
    case 'InvalidToken':
    case 'ExpiredToken':
    case 'InvalidSecurity':
      return fail(
        'permanent',
        'access_denied',
        'access_denied',
        `${where.host} refused the credentials (${e.name}); check access_key_id and secret_access_key`,
      )
    case 'NoSuchBucket':
      return fail(
        'permanent',
        'not_found',
        'bucket_not_found',
        `bucket ${where.bucket} does not exist at ${where.host}; check bucket, region and endpoint`,
      )
    case 'AccessDenied':
    case 'AllAccessDisabled':
    case 'Forbidden':
      return fail(
        'permanent',
        'access_denied',
        `${operation}_denied`,
        `the credentials may not ${operation} objects in bucket ${where.bucket}: the bucket or key policy must allow s3:${S3_ACTIONS[operation]}`,
      )
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
    case 'IllegalLocationConstraintException':
      return fail(
        'permanent',
        'not_found',
        'wrong_region',
        `bucket ${where.bucket} is in another region than the one configured; set config.region to the bucket's region`,
      )
    case 'InvalidStorageClass':
      return fail(
        'permanent',
        'access_denied',
        'invalid_storage_class',
        `${where.host} does not take the configured storage_class`,
      )
    case 'EntityTooLarge':
      return fail('permanent', 'too_large', 'too_large', `${where.host} refused the object as too large`)
    case 'SlowDown':
    case 'TooManyRequests':
    case 'RequestLimitExceeded':
      return fail(
        'transient',
        'rate_limited',
        'rate_limited',
        `${where.host} is throttling requests; will try again`,
      )
    case 'TimeoutError':
    case 'RequestTimeout':
    case 'RequestTimeTooSkewed':
      return fail('transient', 'unavailable', 'timeout', `${where.host} did not answer in time`)
    case 'AbortError':
      return fail('transient', 'unavailable', 'aborted', 'the upload was stopped before it finished')
  }
  // the outbound guard's refusals (a ProblemError, from the SDK)
  if (e.code === 'url_not_allowed')
    return /does not resolve/.test(e.message ?? '')
      ? fail(
          'transient',
          'unavailable',
          'dns_failure',
          `${where.host} does not resolve; check the endpoint's host name`,
        )
      : fail(
          'permanent',
          'access_denied',
          'address_not_allowed',
          `${e.message ?? 'the address is not allowed'}; the operator decides which private addresses may be reached`,
        )
  if (e.code === 'asset_fetch_failed')
    return fail('transient', 'unavailable', 'dns_failure', `no DNS answer for ${where.host} in time`)
  const code = nodeCode(e)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return fail(
      'transient',
      'unavailable',
      'dns_failure',
      `${where.host} does not resolve; check the endpoint's host name`,
    )
  if (code === 'ECONNREFUSED')
    return fail(
      'transient',
      'unavailable',
      'connection_refused',
      `${where.host} refused the connection; is the server running on that port?`,
    )
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT')
    return fail('transient', 'unavailable', 'timeout', `${where.host} did not answer in time`)
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return fail(
      'transient',
      'unavailable',
      'connection_failed',
      `the connection to ${where.host} failed (${code})`,
    )
  if (code && TLS_CODE.test(code))
    return fail(
      'transient',
      'unavailable',
      'tls_error',
      `the TLS connection to ${where.host} failed (${code}): check the endpoint's certificate and scheme`,
    )
  if (status === 404)
    return fail(
      'permanent',
      'not_found',
      'bucket_not_found',
      `bucket ${where.bucket} was not found at ${where.host}`,
    )
  if (status === 401 || status === 403)
    return fail(
      'permanent',
      'access_denied',
      `${operation}_denied`,
      `${where.host} refused to ${operation} in bucket ${where.bucket} (HTTP ${status})`,
    )
  if (status === 429)
    return fail(
      'transient',
      'rate_limited',
      'rate_limited',
      `${where.host} is throttling requests; will try again`,
    )
  return fail(
    'transient',
    'unavailable',
    'unavailable',
    `${where.host} failed to ${operation} the object${status ? ` (HTTP ${status})` : e.name ? ` (${e.name})` : ''}`,
  )
}

const S3_ACTIONS: Record<S3Operation, string> = {
  write: 'PutObject',
  read: 'GetObject',
  delete: 'DeleteObject',
}
