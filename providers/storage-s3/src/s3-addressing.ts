import { isIP } from 'node:net'
import type { CompatibleConfig, ObjectStoreConfig, S3Kind } from './s3-storage-config.ts'

/** Where a destination's requests go, decided once from its config (SPEC 2.8). */
export interface S3Addressing {
  /** the endpoint URL, or undefined for the region's standard one */
  endpoint: string | undefined
  region: string
  forcePathStyle: boolean
}

/**
 * A bucket name with dots, underscores or capitals is not a valid host label (dots also break
 * the certificate's wildcard), and an IP address has no subdomains: those always use path style.
 */
export function mustUsePathStyle(bucket: string, endpoint: string | undefined): boolean {
  if (/[._A-Z]/.test(bucket)) return true
  if (!endpoint) return false
  return isIP(new URL(endpoint).hostname.replace(/^\[|\]$/g, '')) !== 0
}

export function s3Addressing(kind: S3Kind, config: ObjectStoreConfig | CompatibleConfig): S3Addressing {
  const endpoint = config.endpoint?.replace(/\/$/, '')
  const chosen = config.force_path_style ?? kind === 'object_store_compatible'
  return {
    endpoint,
    region: config.region ?? 'us-east-1',
    forcePathStyle: chosen || mustUsePathStyle(config.bucket, endpoint),
  }
}

/** The URL whose host and port every connection goes to (virtual-host names share its port). */
export function endpointUrl(addressing: S3Addressing): URL {
  return new URL(addressing.endpoint ?? `https://s3.${addressing.region}.amazonaws.com`)
}
