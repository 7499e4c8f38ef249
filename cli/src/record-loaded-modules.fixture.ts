// Preloaded with `node --import` by admin-modules.test.ts: writes the URL of every module the
// process resolves (ESM and CommonJS alike, through node:module's synchronous hooks) to the file
// named by DOCSVC_TEST_MODULE_LOG when the process exits.

import { writeFileSync } from 'node:fs'
import { registerHooks } from 'node:module'

const resolved = new Set<string>()
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context)
    resolved.add(result.url)
    return result
  },
})
process.on('exit', () => {
  const out = process.env.DOCSVC_TEST_MODULE_LOG
  if (out) writeFileSync(out, [...resolved].join('\n'))
})
