import type {
  HttpOptions,
  InputContext,
  OutboundGuardApi,
  RenderDocument,
  RenderInput,
  WaitOptions,
} from '@docsvc/core/sdk'
import { ProblemError } from '@docsvc/core/sdk'
import { type UrlInputFields, UrlInputSchema } from './url-input-schema.ts'

export interface UrlInputDeps {
  /** checks the URL up front; without it the browser's proxy still enforces the guard */
  guard?: OutboundGuardApi
}

/** `{ type: 'url', url, wait?, http? }` -> a URL for the browser to load. */
export function createUrlInput(deps: UrlInputDeps = {}): RenderInput<UrlInputFields> {
  return {
    type: 'url',
    schema: UrlInputSchema,
    async resolve(input: UrlInputFields, ctx: InputContext): Promise<RenderDocument> {
      ctx.signal.throwIfAborted()
      const url = await checkedUrl(input.url, deps.guard)
      if (Object.keys(ctx.data).length > 0) {
        ctx.warn('feature_unavailable', '`data` was ignored: a URL input is not templated')
      }
      const document: RenderDocument = { kind: 'url', url }
      if (input.wait) document.wait = input.wait as WaitOptions
      if (input.http) document.http = input.http as HttpOptions
      return document
    },
  }
}

/** Fails fast with url_not_allowed: a file: URL must never reach the browser. */
async function checkedUrl(text: string, guard: OutboundGuardApi | undefined): Promise<string> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ProblemError('url_not_allowed', `${text.slice(0, 200)} is not an absolute URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProblemError('url_not_allowed', `${url.protocol} URLs are not allowed; use http or https`)
  }
  if (url.username || url.password) {
    throw new ProblemError('url_not_allowed', 'URLs may not carry credentials; use http.basic_auth')
  }
  return guard ? (await guard.checkUrl(url.href)).href : url.href
}
