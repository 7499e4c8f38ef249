import { describe, expect, it } from 'vitest'
import { createRegistries, EXTENSION_POINTS } from './extension-points.ts'
import { Registry } from './registry.ts'

describe('Registry', () => {
  it('maps keys to what a plugin registered and remembers the plugin', () => {
    const registry = new Registry<{ type: string }>('input')
    registry.add('markdown', { type: 'markdown' }, 'input-markdown')
    registry.add('html', { type: 'html' }, 'input-html')
    expect(registry.get('html')).toEqual({ type: 'html' })
    expect(registry.has('markdown')).toBe(true)
    expect(registry.has('url')).toBe(false)
    expect(registry.get('url')).toBeUndefined()
    expect(registry.ownerOf('markdown')).toBe('input-markdown')
    expect(registry.ownerOf('url')).toBeUndefined()
  })

  it('lists keys sorted, whatever the registration order', () => {
    const registry = new Registry<number>('output')
    for (const key of ['webp', 'pdf', 'html', 'png']) registry.add(key, 1, 'p')
    expect(registry.keys()).toEqual(['html', 'pdf', 'png', 'webp'])
  })

  it('refuses a second registration of a key, naming both plugins', () => {
    const registry = new Registry<number>('storage provider')
    registry.add('s3', 1, 'storage-s3')
    expect(() => registry.add('s3', 2, 'storage-minio')).toThrow(
      'storage provider "s3" is registered twice: by plugin storage-s3 and by plugin storage-minio',
    )
    expect(registry.get('s3')).toBe(1)
  })
})

describe('createRegistries', () => {
  it('has one empty registry per extension point, labelled for messages', () => {
    const registries = createRegistries()
    expect(Object.keys(registries).sort()).toEqual([...EXTENSION_POINTS].sort())
    for (const point of EXTENSION_POINTS) expect(registries[point].keys()).toEqual([])
    expect(registries.pdfTools.name).toBe('PDF tool')
    expect(registries.einvoiceProfiles.name).toBe('e-invoice profile')
    expect(registries.queueBackends.name).toBe('queue backend')
  })
})
