// @ts-check
// A third-party docsvc plugin, written as a published package would be: plain JavaScript with
// JSDoc types, importing nothing from docsvc but its SDK. docs/plugins.md walks through it.
import { definePlugin } from '@docsvc/core/sdk'
import { Type } from 'typebox'

/** The plugin's own settings. Env: DOCSVC_PLUGIN_HELLO_GREETING (id `hello`, field `greeting`). */
const HelloConfig = Type.Object({
  greeting: Type.String({ minLength: 1, maxLength: 100, default: 'Hello' }),
})

/** @typedef {import('typebox').Static<typeof HelloConfig>} HelloOptions */

/** The input object a render sends: `{ "type": "hello", "name": "Ada" }`. */
// Descriptions, limits and `additionalProperties: false` show in the service's OpenAPI document.
const HelloInputSchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: 'Who to greet.', examples: ['Ada'] }) },
  { additionalProperties: false },
)

/**
 * What the plugin puts in the `inputs` registry under the key `hello`: a render input (the SDK's
 * RenderInput contract) that turns `{ name }` into an HTML document for any output format.
 * @param {HelloOptions} options
 * @returns {import('@docsvc/core/sdk').RenderInput<{ name: string }>}
 */
export function createHelloInput(options) {
  return {
    type: 'hello',
    schema: HelloInputSchema,
    async resolve({ name }) {
      const html = `<!doctype html><html><body><h1>${escapeHtml(options.greeting)}, ${escapeHtml(name)}!</h1></body></html>`
      return { kind: 'html', html }
    },
  }
}

/** @param {string} text */
function escapeHtml(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )
}

// Lifecycle state. start() is where I/O would open (a connection, a timer); healthcheck()
// reports on it, and stop() closes it. Here it is a count of kernels that started the plugin
// (one in a server; a test process may boot several).
let running = 0

export const helloPlugin = definePlugin({
  id: 'hello',
  apiVersion: '^1',
  provides: { inputs: ['hello'] },
  config: HelloConfig,
  // wiring only: build the registry entry from the validated config, no I/O
  register({ registries, config }) {
    registries.inputs.add('hello', createHelloInput(config))
  },
  start({ log, config, roles }) {
    running += 1
    log.info('hello plugin started', { greeting: config.greeting, roles })
  },
  stop({ log }) {
    running = Math.max(0, running - 1)
    log.info('hello plugin stopped')
  },
  healthcheck() {
    return running > 0 ? { ok: true } : { ok: false, detail: 'not started' }
  },
})

export default helloPlugin
