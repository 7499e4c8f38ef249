import { definePlugin } from '@docsvc/core/sdk'
import { createUrlInput } from './url-input.ts'

export { HttpOptionsSchema, MAX_COOKIES, MAX_HEADERS } from './http-options-schema.ts'
export { createUrlInput, type UrlInputDeps } from './url-input.ts'
export { type UrlInputFields, UrlInputSchema } from './url-input-schema.ts'

/** The `url` input: a page the browser loads, with wait conditions and HTTP credentials. */
export const inputUrlPlugin = definePlugin({
  id: 'input-url',
  apiVersion: '^1',
  provides: { inputs: ['url'] },
  register({ registries, host }) {
    // the guard is only used at resolve time (I/O); register just wires it in
    registries.inputs.add('url', createUrlInput({ guard: host.guard }))
  },
})
