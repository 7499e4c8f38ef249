import { registerHooks } from 'node:module'

const SDK_SPECIFIER = '@docsvc/core/sdk'
const SDK_URL = new URL('../../sdk/index.ts', import.meta.url).href

let linked = false

/**
 * A plugin installed in a DOCSVC_PLUGIN_PATHS directory has no @docsvc/core beside it (core is
 * not published; it is this process). When its `import '@docsvc/core/sdk'` finds nothing, it
 * gets this kernel's SDK; a resolvable copy is left alone.
 */
export function linkSdkForPlugins(): void {
  if (linked) return
  linked = true
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context)
      } catch (err) {
        if (specifier !== SDK_SPECIFIER || (err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND')
          throw err
        return { url: SDK_URL, format: 'module-typescript', shortCircuit: true }
      }
    },
  })
}
