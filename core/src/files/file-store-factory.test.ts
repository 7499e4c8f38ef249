import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../kernel/config-loader.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { Registry } from '../kernel/plugins/registry.ts'
import type { FileStore, FileStoreFactory } from '../sdk/file-contracts.ts'
import { fileStoreFactoriesOf, selectFileStore } from './file-store-factory.ts'
import { LocalFileStore } from './local-file-store.ts'

const remote: FileStore = {
  put: async () => {},
  putStream: async () => {},
  get: async () => undefined,
  delete: async () => {},
}
const factory = (id: string, configured: boolean): FileStoreFactory => ({
  id,
  configured,
  create: () => remote,
})
const config = (mode: 'embedded' | 'cluster') => ({ mode, dataDir: '/srv/docsvc' })

describe('selectFileStore', () => {
  it('keeps files on local disk under DATA_DIR/files when no provider is configured', () => {
    const log = { warn: vi.fn() }
    const store = selectFileStore({ config: config('embedded'), factories: [factory('s3', false)], log })
    expect(store).toBeInstanceOf(LocalFileStore)
    expect((store as LocalFileStore).root).toBe(path.resolve('/srv/docsvc/files'))
    expect(log.warn).not.toHaveBeenCalled()
  })

  it('uses the configured provider, in either mode', () => {
    const log = { warn: vi.fn() }
    for (const mode of ['embedded', 'cluster'] as const) {
      const factories = [factory('other', false), factory('s3', true)]
      expect(selectFileStore({ config: config(mode), factories, log })).toBe(remote)
    }
    expect(log.warn).not.toHaveBeenCalled()
  })

  it('warns that cluster pods must share the data dir when files stay on local disk', () => {
    const log = { warn: vi.fn() }
    expect(selectFileStore({ config: config('cluster'), factories: [], log })).toBeInstanceOf(LocalFileStore)
    expect(log.warn).toHaveBeenCalledWith(expect.stringMatching(/every API and worker pod must share/))
  })

  it('refuses two configured providers instead of picking one', () => {
    const factories = [factory('s3', true), factory('azure', true)]
    expect(() => selectFileStore({ config: config('cluster'), factories, log: { warn: vi.fn() } })).toThrow(
      ConfigError,
    )
  })
})

describe('fileStoreFactoriesOf', () => {
  it('reads the fileStores registry', () => {
    const fileStores = new Registry<FileStoreFactory>('file store')
    expect(fileStoreFactoriesOf({ registries: { fileStores } } as unknown as PluginSet)).toEqual([])
    fileStores.add('s3', factory('s3', true))
    const withRegistry = { registries: { fileStores } } as unknown as PluginSet
    expect(fileStoreFactoriesOf(withRegistry).map((f) => f.id)).toEqual(['s3'])
  })
})
