import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import type { PluginManifest } from '../sdk/define-plugin.ts'
import { templatesModule } from '../templates/templates-module.ts'
import { standardPlugin, startTestKernel } from '../testing/index.ts'
import { uploadsModule } from '../uploads/uploads-module.ts'
import type { FeatureModule } from './feature-module.ts'

const QUEUE = [standardPlugin('queue-sqlite')]

/** A feature that writes what happens to it into `events`. */
function recording(id: string, events: string[], extra: Partial<FeatureModule> = {}): FeatureModule {
  return {
    id,
    start: ({ roles }) => {
      events.push(`start ${id} ${roles.join(',')}`)
    },
    stop: () => {
      events.push(`stop ${id}`)
    },
    ...extra,
  }
}

// Built-in features follow the plugin manifest's lifecycle (decision 0038): ordered by
// `requires`, started after the plugins, stopped in reverse, checked by GET /readyz.
describe('the feature lifecycle', () => {
  it('starts features in requires order with the roles, and stops them in reverse', async () => {
    const events: string[] = []
    const t = await startTestKernel({
      builtins: QUEUE,
      features: [recording('tools', events, { requires: ['files'] }), recording('files', events)],
    })
    expect(events).toEqual(['start files api', 'start tools api'])
    await t.close()
    expect(events).toEqual(['start files api', 'start tools api', 'stop tools', 'stop files'])
  })

  it('refuses to boot when a required feature is missing, naming both', async () => {
    await expect(
      startTestKernel({ builtins: QUEUE, features: [recording('tools', [], { requires: ['files'] })] }),
    ).rejects.toThrow(/feature tools requires feature files, which is not installed/)
  })

  it('stops the features already started when one fails to start', async () => {
    const events: string[] = []
    const broken = recording('broken', events, {
      start: () => {
        throw new Error('no disk')
      },
    })
    await expect(
      startTestKernel({ builtins: QUEUE, features: [recording('files', events), broken] }),
    ).rejects.toThrow(/feature broken failed to start: no disk/)
    expect(events).toEqual(['start files api', 'stop files'])
  })

  it('reports each feature healthcheck in GET /readyz, called with its kernel context', async () => {
    const t = await startTestKernel({
      builtins: QUEUE,
      features: [
        {
          id: 'served',
          healthcheck: ({ roles, cradle }) => ({ ok: roles.includes('api') && !!cradle.config }),
        },
        { id: 'broken', healthcheck: () => ({ ok: false, detail: 'disk full' }) },
      ],
    })
    try {
      const res = await t.inject({ method: 'GET', url: '/readyz' })
      expect(res.statusCode).toBe(503)
      expect(res.json().checks).toEqual({ database: 'ok', queue: 'ok', served: 'ok', broken: 'failed' })
      expect(res.body).not.toContain('disk full')
    } finally {
      await t.close()
    }
  })
})

// One loader for both (decision 0038): requires may cross, ids are unique across, config is read
// and checked as a plugin's is.
describe('features and plugins in one loader', () => {
  it('starts a feature after the plugin it requires, and names both kinds in problems', async () => {
    const events: string[] = []
    const plugin = {
      id: 'disk',
      apiVersion: '^1',
      provides: {},
      register() {},
      start: () => {
        events.push('start plugin disk')
      },
    } as PluginManifest<never>
    const t = await startTestKernel({
      builtins: [...QUEUE, plugin],
      features: [recording('files', events, { requires: ['disk'] })],
    })
    expect(events).toEqual(['start plugin disk', 'start files api'])
    await t.close()
    await expect(
      startTestKernel({
        builtins: [...QUEUE, { ...plugin, id: 'files' }],
        features: [recording('files', [])],
      }),
    ).rejects.toThrow('feature id "files" is used twice (builtin and feature)')
  })

  it('reads a feature’s config from DOCSVC_FEATURE_<ID>_* and refuses a bad value at boot', async () => {
    let seen: unknown
    const configured: FeatureModule<{ batch_size: number }> = {
      id: 'bulk-files',
      config: Type.Object({ batch_size: Type.Integer({ minimum: 1, default: 10 }) }),
      register: ({ config }) => {
        seen = config.batch_size
      },
    }
    const features = [configured as FeatureModule]
    const t = await startTestKernel({
      builtins: QUEUE,
      features,
      env: { DOCSVC_FEATURE_BULK_FILES_BATCH_SIZE: '25' },
    })
    await t.close()
    expect(seen).toBe(25)
    await expect(
      startTestKernel({ builtins: QUEUE, features, env: { DOCSVC_FEATURE_BULK_FILES_BATCH_SIZE: '0' } }),
    ).rejects.toThrow(/feature bulk-files: DOCSVC_FEATURE_BULK_FILES_BATCH_SIZE/)
  })
})

describe('uploads and templates as manifest-shaped features', () => {
  it('run their sweepers with the worker role only, and stop them with the kernel', async () => {
    const features = [templatesModule, uploadsModule]
    const api = await startTestKernel({ builtins: QUEUE, features })
    try {
      expect(api.kernel.container.cradle.uploadSweeper.running).toBe(false)
      expect(api.kernel.container.cradle.templateTrash.running).toBe(false)
    } finally {
      await api.close()
    }
    const worker = await startTestKernel({ builtins: QUEUE, features, roles: ['worker'] })
    const { uploadSweeper, templateTrash } = worker.kernel.container.cradle
    expect([uploadSweeper.running, templateTrash.running]).toEqual([true, true])
    await worker.close()
    expect([uploadSweeper.running, templateTrash.running]).toEqual([false, false])
  })
})
