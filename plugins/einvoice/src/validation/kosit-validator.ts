import { type ConformanceReport, conformanceReport, type EinvoiceXmlValidator } from '@docsvc/core/sdk'
import { readKositReport } from './kosit-report.ts'

// The operator's KoSIT validator in daemon mode (`java -jar validationtool-...-standalone.jar -s
// <scenarios> -D`): it takes one XML document as the body of a POST to any path and answers a
// report, with 200 when the document is acceptable and 406 when it is not; 400, 422 and 500 say
// the daemon could not check it. Decision 0116: the URL is the operator's configuration, called
// directly, not through the guard that stands between tenants' URLs and private networks.

export const KOSIT_SOURCE = 'KoSIT validator'
const DEFAULT_TIMEOUT_MS = 30_000
const MAX_REPORT_BYTES = 10 * 1024 * 1024

export interface KositValidatorOptions {
  /** DOCSVC_EINVOICE_VALIDATOR_URL, e.g. http://127.0.0.1:8080/ */
  url: string
  timeoutMs?: number
}

/** The daemon's URL, checked once at start: http or https, nothing else. */
export function daemonUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error('DOCSVC_EINVOICE_VALIDATOR_URL is not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`DOCSVC_EINVOICE_VALIDATOR_URL must be http or https, not ${url.protocol}`)
  return url
}

async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > limit) throw new Error(`its report is larger than ${limit} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Checks both syntaxes with the operator's daemon (its scenarios decide what it knows: XRechnung,
 * EN 16931 CII and UBL). Findings keep the daemon's rule ids and XPaths; the report's source is
 * `KoSIT validator`. No answer in time, an HTTP error, or no scenario for the document throws:
 * the core reports that as einvoice_validation_unavailable, never as valid.
 */
export function kositValidator(options: KositValidatorOptions): EinvoiceXmlValidator {
  const url = daemonUrl(options.url)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return {
    id: 'kosit-validator',
    syntaxes: ['cii', 'ubl'],
    async validate(xml, { signal }): Promise<ConformanceReport> {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: new Uint8Array(xml),
        // the invoice goes to the configured address only
        redirect: 'error',
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      })
      if (res.status !== 200 && res.status !== 406) {
        await res.body?.cancel()
        throw new Error(`the ${KOSIT_SOURCE} answered HTTP ${res.status}`)
      }
      const verdict = readKositReport(await readCapped(res.body, MAX_REPORT_BYTES))
      if (!verdict.scenarioMatched)
        throw new Error(`no scenario of the ${KOSIT_SOURCE}'s configuration matches this document`)
      // the status and the report must agree; a 406 with an accepting report is not trusted
      if ((res.status === 200) !== verdict.accepted)
        throw new Error(`the ${KOSIT_SOURCE} answered ${res.status} with a report that says the opposite`)
      return conformanceReport(verdict.findings, { source: KOSIT_SOURCE })
    },
  }
}
