import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { loadPlugins } from './plugin-loader.ts'
import { pluginDirectory, recordingLogger, testHost } from './plugin-test-fixtures.ts'

// The example in examples/plugin-delivery, installed as a package: the real loader finds it by
// name and its factories land in the storage and email registries (its contract kits run in
// examples/plugin-delivery/delivery.test.ts).

const DELIVERY_PACKAGE_DIR = fileURLToPath(new URL('../../../../examples/plugin-delivery', import.meta.url))

describe('a third-party plugin adding a storage and an email provider (examples/plugin-delivery)', () => {
  const plugins = pluginDirectory({ 'docsvc-plugin-delivery': DELIVERY_PACKAGE_DIR })
  afterAll(() => plugins.remove())

  it('loads by package name and registers its provider factories under their ids', async () => {
    const { registries, plugins: loaded } = await loadPlugins({
      builtins: [],
      packages: ['docsvc-plugin-delivery'],
      searchPaths: [plugins.dir],
      env: {},
      log: recordingLogger(),
      host: testHost(),
    })
    expect(loaded.map((p) => [p.manifest.id, p.registered])).toEqual([
      ['delivery-example', { storageProviders: ['drop_folder'], emailProviders: ['example_smtp'] }],
    ])
    const storage = registries.storageProviders.get('drop_folder')
    expect(Object.keys(storage?.credentialsSchema.properties ?? {})).toEqual(['access_token'])
    expect(registries.emailProviders.get('example_smtp')?.capabilities).toEqual({
      sandbox: false,
      redirect: true,
      deliveryEvents: false,
    })
  })
})
