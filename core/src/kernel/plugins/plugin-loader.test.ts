import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKernel } from '../../composition/create-kernel.ts'
import { PLUGIN_API_VERSION } from '../../sdk/index.ts'
import { standardPlugin, startTestKernel, type TestKernel, type TestWorkspace } from '../../testing/index.ts'
import { loadConfig } from '../config.ts'
import { apiVersionAccepts, type LoadPluginsOptions, loadPlugins, PluginBootError } from './plugin-loader.ts'
import {
  fakeInput,
  fakeOutput,
  HELLO_PACKAGE_DIR,
  inputPlugin,
  pluginDirectory,
  recordingLogger,
  testHost,
} from './plugin-test-fixtures.ts'

/** Resolves the example's `hello` input as the render pipeline would; returns its HTML. */
async function helloHtml(input: unknown, name: string): Promise<string> {
  const hello = input as {
    resolve(i: { name: string }, ctx: never): Promise<{ kind: string; html?: string }>
  }
  const doc = await hello.resolve({ name }, {} as never)
  expect(doc.kind).toBe('html')
  return doc.html ?? ''
}

describe('a third-party plugin loaded by package name (examples/plugin-hello)', () => {
  const plugins = pluginDirectory({ 'docsvc-plugin-hello': HELLO_PACKAGE_DIR })
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      env: { DOCSVC_PLUGINS: 'docsvc-plugin-hello', DOCSVC_PLUGIN_HELLO_GREETING: 'Bonjour' },
      // the embedded queue, so /readyz has everything it checks
      builtins: [standardPlugin('queue-sqlite')],
      pluginSearchPaths: [plugins.dir],
    })
    ws = await t.createWorkspace()
  })
  afterAll(async () => {
    await t?.close()
    plugins.remove()
  })

  it('shows its registry entry in GET /v1/account capabilities', async () => {
    const res = await t.inject({ method: 'GET', url: '/v1/account', key: ws.testKey })
    expect(res.statusCode).toBe(200)
    expect(res.json().capabilities.inputs).toContain('hello')
  })

  it('registers an input that renders with the greeting set through its env var', async () => {
    const { registries, plugins: loaded } = t.kernel.plugins
    const input = registries.inputs.get('hello')
    expect(input?.type).toBe('hello')
    expect(await helloHtml(input, 'Ada')).toContain('<h1>Bonjour, Ada!</h1>')
    expect(await helloHtml(input, '<script>')).toContain('&lt;script&gt;')
    expect(registries.inputs.ownerOf('hello')).toBe('hello')
    expect(loaded.find((p) => p.manifest.id === 'hello')).toMatchObject({
      source: 'docsvc-plugin-hello',
      config: { greeting: 'Bonjour' },
      registered: { inputs: ['hello'] },
    })
  })

  it('reports its healthcheck in GET /readyz', async () => {
    const res = await t.inject({ method: 'GET', url: '/readyz' })
    expect(res.statusCode).toBe(200)
    expect(res.json().checks).toMatchObject({ database: 'ok', queue: 'ok', hello: 'ok' })
  })

  it('is found through DOCSVC_PLUGIN_PATHS and takes its default greeting', async () => {
    const other = await startTestKernel({
      env: { DOCSVC_PLUGINS: 'docsvc-plugin-hello', DOCSVC_PLUGIN_PATHS: plugins.dir },
      builtins: [],
    })
    try {
      const input = other.kernel.plugins.registries.inputs.get('hello')
      expect(await helloHtml(input, 'Ada')).toContain('<h1>Hello, Ada!</h1>')
    } finally {
      await other.close()
    }
  })

  it('stops the kernel from booting when its config is bad, naming the env var', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-test-'))
    const env = {
      DOCSVC_DATA_DIR: dataDir,
      DOCSVC_LOG_LEVEL: 'silent',
      DOCSVC_PLUGINS: 'docsvc-plugin-hello',
      DOCSVC_PLUGIN_HELLO_GREETING: '',
    }
    try {
      const boot = createKernel({
        config: loadConfig(env),
        env,
        builtins: [],
        pluginSearchPaths: [plugins.dir],
      })
      await expect(boot).rejects.toThrow(PluginBootError)
      await expect(boot).rejects.toThrow(
        /plugin hello: DOCSVC_PLUGIN_HELLO_GREETING: must not have fewer than 1/,
      )
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('plugin packages', () => {
  const log = recordingLogger()
  const plugins = pluginDirectory({
    'docsvc-plugin-hello': HELLO_PACKAGE_DIR,
    'docsvc-plugin-empty': {
      'package.json': JSON.stringify({ name: 'docsvc-plugin-empty', type: 'module', exports: './index.js' }),
      'index.js': 'export const notAPlugin = { id: "empty" }\n',
    },
    // ESM only, as most packages are published now: no `require` condition
    'docsvc-plugin-esm': {
      'package.json': JSON.stringify({
        name: 'docsvc-plugin-esm',
        type: 'module',
        exports: { '.': { types: './index.d.ts', import: './index.js' } },
      }),
      // installed away from docsvc: no @docsvc/core beside it, so the kernel lends its SDK
      'index.js': [
        "import { definePlugin } from '@docsvc/core/sdk'",
        'export const plugin = definePlugin({',
        "  id: 'esm-output', apiVersion: '^1', provides: { outputs: ['txt'] },",
        "  register({ registries }) { registries.outputs.add('txt', { format: 'txt' }) },",
        '})',
        '',
      ].join('\n'),
    },
  })
  afterAll(() => plugins.remove())

  const load = (packages: string[], extra: Partial<LoadPluginsOptions> = {}) =>
    loadPlugins({
      host: testHost(),
      builtins: [],
      packages,
      searchPaths: [plugins.dir],
      env: {},
      log,
      ...extra,
    })

  it('loads an ESM-only package whose exports name only the import condition', async () => {
    const set = await load(['docsvc-plugin-esm'])
    expect(set.registries.outputs.keys()).toEqual(['txt'])
    expect(set.plugins[0]?.source).toBe('docsvc-plugin-esm')
  })

  it('refuses a package name that cannot be found', async () => {
    await expect(load(['docsvc-plugin-missing'])).rejects.toThrow(
      /plugin package docsvc-plugin-missing cannot be found in node_modules of .*npm install docsvc-plugin-missing/,
    )
  })

  it('refuses a package that exports no manifest', async () => {
    await expect(load(['docsvc-plugin-empty'])).rejects.toThrow(
      'plugin package docsvc-plugin-empty exports no plugin manifest',
    )
  })

  it('refuses a package whose plugin id a built-in already has', async () => {
    await expect(
      load(['docsvc-plugin-hello'], { builtins: [inputPlugin('hello', ['html'])] }),
    ).rejects.toThrow('plugin id "hello" is used twice (builtin and docsvc-plugin-hello)')
  })

  it('reports every problem at once', async () => {
    const err = await load(['docsvc-plugin-missing', 'docsvc-plugin-empty', 'docsvc-plugin-hello'], {
      builtins: [inputPlugin('Bad_Id', ['x'])],
      env: { DOCSVC_PLUGIN_HELLO_GREETING: '' },
    }).catch((e: Error) => e)
    expect(err).toBeInstanceOf(PluginBootError)
    const message = (err as Error).message
    expect(message).toMatch(/^plugins cannot start:/)
    expect(message).toContain('docsvc-plugin-missing cannot be found')
    expect(message).toContain('docsvc-plugin-empty exports no plugin manifest')
    expect(message).toContain('plugin id "Bad_Id" (builtin) is not kebab-case')
    expect(message).toContain('DOCSVC_PLUGIN_HELLO_GREETING')
  })
})

describe('boot checks', () => {
  const log = recordingLogger()
  const boot = (builtins: LoadPluginsOptions['builtins'], env: NodeJS.ProcessEnv = {}) =>
    loadPlugins({ host: testHost(), builtins, packages: [], env, log })

  it('refuses a registry key registered by two plugins, naming both', async () => {
    await expect(boot([inputPlugin('input-a', ['html']), inputPlugin('input-b', ['html'])])).rejects.toThrow(
      'plugin input-b failed to register: input "html" is registered twice: by plugin input-a and by plugin input-b',
    )
  })

  it('refuses a plugin whose register() throws', async () => {
    const broken = inputPlugin('broken', ['x'], {
      register() {
        throw new Error('no wiring today')
      },
    })
    await expect(boot([broken])).rejects.toThrow('plugin broken failed to register: no wiring today')
  })

  it('refuses a plugin that registers something other than it provides', async () => {
    const liar = inputPlugin('liar', ['html'], {
      register({ registries }) {
        registries.inputs.add('markdown', fakeInput('markdown'))
      },
    })
    await expect(boot([liar])).rejects.toThrow('plugin liar declares inputs [html] but registered [markdown]')
  })

  it('refuses a plugin that registers into a point it does not declare', async () => {
    const sneaky = inputPlugin('sneaky', ['html'], {
      register({ registries }) {
        registries.inputs.add('html', fakeInput('html'))
        registries.outputs.add('pdf', fakeOutput('pdf'))
      },
    })
    await expect(boot([sneaky])).rejects.toThrow('plugin sneaky declares outputs [] but registered [pdf]')
  })

  it('refuses an asynchronous register()', async () => {
    const eager = inputPlugin('eager', [], { register: (async () => {}) as never })
    await expect(boot([eager])).rejects.toThrow('plugin eager: register() returned a promise')
  })

  it('refuses a provides key that is not an extension point', async () => {
    const typo = inputPlugin('typo', [], { provides: { input: ['x'] } as never })
    await expect(boot([typo])).rejects.toThrow(
      'plugin typo provides "input", which is not an extension point',
    )
  })

  it('refuses a missing required plugin', async () => {
    const needy = inputPlugin('needy', ['x'], { requires: ['output-chromium'] })
    await expect(boot([needy])).rejects.toThrow(
      'plugin needy requires plugin output-chromium, which is not installed',
    )
  })

  it('refuses plugins that require each other in a cycle', async () => {
    const a = inputPlugin('plugin-a', ['a'], { requires: ['plugin-b'] })
    const b = inputPlugin('plugin-b', ['b'], { requires: ['plugin-c'] })
    const c = inputPlugin('plugin-c', ['c'], { requires: ['plugin-a'] })
    await expect(boot([a, b, c])).rejects.toThrow(
      'plugins require each other in a cycle: plugin-a -> plugin-b -> plugin-c -> plugin-a',
    )
  })

  it('refuses an apiVersion the kernel does not offer', async () => {
    const future = inputPlugin('future', ['x'], { apiVersion: '^2' })
    await expect(boot([future])).rejects.toThrow(
      `plugin future needs plugin API ^2; this docsvc offers ${PLUGIN_API_VERSION}`,
    )
  })

  it('refuses a non-kebab-case id', async () => {
    await expect(boot([inputPlugin('HelloWorld', ['x'])])).rejects.toThrow(
      'plugin id "HelloWorld" (builtin) is not kebab-case',
    )
    await expect(boot([inputPlugin('hello_world', ['x'])])).rejects.toThrow('is not kebab-case')
  })

  it('refuses two plugins with one id', async () => {
    await expect(boot([inputPlugin('same', ['a']), inputPlugin('same', ['b'])])).rejects.toThrow(
      'plugin id "same" is used twice (builtin and builtin)',
    )
  })

  it('refuses a bad plugin config value, naming the env var to set', async () => {
    const { Type } = await import('typebox')
    const configured = inputPlugin('pdf-store', ['x'], {
      config: Type.Object({ maxFiles: Type.Integer({ minimum: 1 }), bucket: Type.String() }),
    })
    const err = await boot([configured], { DOCSVC_PLUGIN_PDF_STORE_MAX_FILES: 'many' }).catch((e: Error) => e)
    expect((err as Error).message).toContain(
      'plugin pdf-store: DOCSVC_PLUGIN_PDF_STORE_MAX_FILES: must be integer (got "many")',
    )
    expect((err as Error).message).toContain('plugin pdf-store: DOCSVC_PLUGIN_PDF_STORE_BUCKET: is required')
  })

  it('orders register() by requires and keeps the given order otherwise', async () => {
    const order: string[] = []
    const tracked = (id: string, requires: string[] = []) =>
      inputPlugin(id, [], { requires, register: () => void order.push(id) })
    const set = await boot([tracked('b', ['a']), tracked('c'), tracked('a')])
    expect(order).toEqual(['a', 'b', 'c'])
    expect(set.plugins.map((p) => p.manifest.id)).toEqual(['a', 'b', 'c'])
  })
})

describe('apiVersionAccepts', () => {
  it.each(['^1', '1', '1.x', '^1.0', '1.0.x', '*'])('accepts %s', (range) => {
    expect(apiVersionAccepts(range, '1.0.0')).toBe(true)
  })
  it.each(['^2', '2.x', '>=1', '', 'one'])('refuses %s', (range) => {
    expect(apiVersionAccepts(range, '1.0.0')).toBe(false)
  })
})
