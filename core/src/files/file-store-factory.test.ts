import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { ConfigError } from '../kernel/config-loader.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { Registry } from '../kernel/plugins/registry.ts'
import type { FileStore, FileStoreFactory } from '../sdk/file-contracts.ts'
import { chooseFileStore, fileStoreFactoriesOf, selectFileStore } from './file-store-factory.ts'
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
const config = (mode: 'embedded' | 'cluster', fileStore = 'auto') => ({
  mode,
  dataDir: '/srv/docsvc',
  fileStore,
})
const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn()
  } catch (err) {
    if (err instanceof ConfigError) return err.problems
    throw err
  }
  return []
}

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

describe('DOCSVC_FILE_STORE', () => {
  const log = { warn: vi.fn() }

  it('local keeps files on disk; s3 uses its configured provider', () => {
    expect(
      selectFileStore({ config: config('embedded', 'local'), factories: [factory('s3', false)], log }),
    ).toBeInstanceOf(LocalFileStore)
    const factories = [factory('azure', false), factory('s3', true)]
    expect(selectFileStore({ config: config('cluster', 's3'), factories, log })).toBe(remote)
  })

  it('picks one of two configured providers by name instead of refusing both', () => {
    // still refused: the other one's settings would be ignored
    const factories = [factory('s3', true), factory('azure', true)]
    expect(problemsOf(() => selectFileStore({ config: config('cluster', 's3'), factories, log }))).toEqual([
      'DOCSVC_FILE_STORE: the file store "s3" is chosen, but "azure" is configured too and would be ignored: unset its settings',
    ])
  })

  it('refuses local while a provider is configured, rather than ignoring its bucket', () => {
    expect(
      problemsOf(() =>
        selectFileStore({ config: config('cluster', 'local'), factories: [factory('s3', true)], log }),
      ),
    ).toEqual([
      'DOCSVC_FILE_STORE: the file store "local" is chosen, but "s3" is configured too and would be ignored: unset its settings',
    ])
  })

  it('refuses a provider whose settings name no place', () => {
    expect(
      problemsOf(() =>
        selectFileStore({ config: config('cluster', 's3'), factories: [factory('s3', false)], log }),
      ),
    ).toEqual([
      'DOCSVC_FILE_STORE: the file store "s3" is chosen but its plugin\'s settings name no place to store files (e.g. a bucket)',
    ])
  })

  it('refuses a store no loaded plugin provides, naming what is loaded', () => {
    expect(
      problemsOf(() =>
        selectFileStore({ config: config('cluster', 'gcs'), factories: [factory('s3', false)], log }),
      ),
    ).toEqual([
      'DOCSVC_FILE_STORE: no loaded plugin provides the file store "gcs" (loaded: local, s3; or auto)',
    ])
  })

  it('chooseFileStore answers without creating a store', () => {
    const create = vi.fn()
    const s3 = { id: 's3', configured: true, create }
    expect(chooseFileStore({ config: config('cluster'), factories: [s3] })).toBe(s3)
    expect(chooseFileStore({ config: config('cluster'), factories: [] })).toBe('local')
    expect(create).not.toHaveBeenCalled()
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
