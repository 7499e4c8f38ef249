import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import type { LifecycleContext } from '../../sdk/index.ts'
import { loadPlugins, PluginBootError } from './plugin-loader.ts'
import { inputPlugin, recordingLogger, testHost } from './plugin-test-fixtures.ts'

function tracked(events: string[], id: string, extra: Parameters<typeof inputPlugin>[2] = {}) {
  return inputPlugin(id, [], {
    start: () => void events.push(`start ${id}`),
    stop: () => void events.push(`stop ${id}`),
    ...extra,
  })
}

describe('plugin start and stop', () => {
  it('starts in requires order and stops in reverse', async () => {
    const events: string[] = []
    const log = recordingLogger()
    const set = await loadPlugins({
      host: testHost(),
      builtins: [
        tracked(events, 'queue-user', { requires: ['queue'] }),
        tracked(events, 'queue'),
        tracked(events, 'other'),
      ],
      packages: [],
      env: {},
      log,
    })
    await set.start(['api', 'worker'])
    await set.stop(['api', 'worker'])
    expect(events).toEqual([
      'start queue',
      'start queue-user',
      'start other',
      'stop other',
      'stop queue-user',
      'stop queue',
    ])
  })

  it('gives start() the roles, the validated config and a logger that names the plugin', async () => {
    const seen: LifecycleContext<{ size: number }>[] = []
    const log = recordingLogger()
    const set = await loadPlugins({
      host: testHost(),
      builtins: [
        inputPlugin('sized', [], {
          config: Type.Object({ size: Type.Integer({ default: 3 }) }),
          start: ((ctx: LifecycleContext<{ size: number }>) => {
            seen.push(ctx)
            ctx.log.info('ready', { size: ctx.config.size })
          }) as never,
        }),
      ],
      packages: [],
      env: { DOCSVC_PLUGIN_SIZED_SIZE: '7' },
      log,
    })
    await set.start(['worker'])
    expect(seen[0]?.roles).toEqual(['worker'])
    expect(seen[0]?.config).toEqual({ size: 7 })
    expect(log.lines).toContainEqual({ level: 'info', msg: 'ready', data: { plugin: 'sized', size: 7 } })
  })

  it('only logs a stop that exceeds its deadline, and stops the others anyway', async () => {
    const events: string[] = []
    const log = recordingLogger()
    const set = await loadPlugins({
      host: testHost(),
      builtins: [
        tracked(events, 'first'),
        tracked(events, 'slow', { stop: () => new Promise<void>(() => {}) }),
      ],
      packages: [],
      env: {},
      log,
    })
    await set.start(['api'])
    const began = Date.now()
    await set.stop(['api'], 50)
    expect(Date.now() - began).toBeLessThan(2000)
    expect(events).toEqual(['start first', 'start slow', 'stop first'])
    expect(log.lines).toContainEqual({ level: 'warn', msg: 'plugin slow did not stop within 50 ms' })
  })

  it('only logs a stop that throws, even synchronously', async () => {
    const events: string[] = []
    const log = recordingLogger()
    const set = await loadPlugins({
      host: testHost(),
      builtins: [
        tracked(events, 'first'),
        tracked(events, 'thrower', {
          stop: () => {
            throw new Error('socket already closed')
          },
        }),
        tracked(events, 'rejecter', { stop: async () => Promise.reject(new Error('gone')) }),
      ],
      packages: [],
      env: {},
      log,
    })
    await set.start(['api'])
    await expect(set.stop(['api'])).resolves.toBeUndefined()
    expect(events).toContain('stop first')
    expect(log.lines).toContainEqual({
      level: 'error',
      msg: 'plugin thrower failed to stop: socket already closed',
    })
    expect(log.lines).toContainEqual({ level: 'error', msg: 'plugin rejecter failed to stop: gone' })
  })

  it('stops the plugins already started when one fails to start', async () => {
    const events: string[] = []
    const set = await loadPlugins({
      host: testHost(),
      builtins: [
        tracked(events, 'one'),
        tracked(events, 'two'),
        tracked(events, 'broken', {
          start: () => {
            throw new Error('port in use')
          },
        }),
        tracked(events, 'never'),
      ],
      packages: [],
      env: {},
      log: recordingLogger(),
    })
    const started = set.start(['api'])
    await expect(started).rejects.toThrow(PluginBootError)
    await expect(started).rejects.toThrow('plugin broken failed to start: port in use')
    expect(events).toEqual(['start one', 'start two', 'stop two', 'stop one'])
    // nothing is left to stop at shutdown
    await set.stop(['api'])
    expect(events).toHaveLength(4)
  })
})
