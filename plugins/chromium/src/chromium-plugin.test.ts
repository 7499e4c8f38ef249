import { loadTestPlugins, type PluginSet } from '@docsvc/core/testing'
import { describe, expect, it } from 'vitest'
import { quietLog } from './chromium-test-support.ts'
import { chromiumPlugin, PdfOutput } from './index.ts'

async function load(env: NodeJS.ProcessEnv) {
  return loadTestPlugins({
    plugins: [chromiumPlugin as never],
    env,
    log: quietLog,
    host: {
      chromiumPath: '/usr/bin/chromium',
      // Chromium's folders go to the system temp dir, which must not be the data dir
      dataDir: '/var/lib/docsvc-plugin-test',
    },
  })
}

async function health(plugins: PluginSet) {
  const bound = plugins.healthchecks.find((h) => h.id === chromiumPlugin.id)
  if (!bound) throw new Error('the chromium plugin has no healthcheck')
  return bound.check()
}

describe('the chromium plugin', () => {
  it('registers the five outputs and reads its config from DOCSVC_PLUGIN_CHROMIUM_*', async () => {
    const plugins = await load({
      DOCSVC_PLUGIN_CHROMIUM_CONCURRENCY: '3',
      DOCSVC_PLUGIN_CHROMIUM_SLOW_ASSET_MS: '900',
    })
    expect(plugins.registries.outputs.keys()).toEqual(['html', 'jpeg', 'pdf', 'png', 'webp'])
    expect(plugins.plugins[0]?.config).toMatchObject({
      concurrency: 3,
      slowAssetMs: 900,
      idlePagesPerWorkspace: 2,
    })
    const pdf = plugins.registries.outputs.get('pdf')
    expect(pdf).toBeInstanceOf(PdfOutput)
    expect((pdf as PdfOutput).pool.config.concurrency).toBe(3)
  })

  it('names the env var of a bad setting', async () => {
    await expect(load({ DOCSVC_PLUGIN_CHROMIUM_CONCURRENCY: 'lots' })).rejects.toThrow(
      /DOCSVC_PLUGIN_CHROMIUM_CONCURRENCY/,
    )
  })

  it('starts no browser for the api role, and one for the worker role', async () => {
    const api = await load({})
    await api.start(['api'])
    expect(await health(api)).toEqual({ ok: true, detail: 'the browser starts with the first render' })
    await api.stop(['api'])

    const worker = await load({})
    await worker.start(['worker'])
    const pool = (worker.registries.outputs.get('pdf') as PdfOutput).pool
    expect(await pool.browserPid()).toBeGreaterThan(0)
    expect(await health(worker)).toMatchObject({ ok: true })
    await worker.stop(['worker'])
  })

  // two kernels in one process (tests, an embedded host): each readiness probe reports its own
  // browser, not every browser the module ever made
  it("reports the health of its own kernel's browser pool only", async () => {
    const worker = await load({})
    const api = await load({})
    await worker.start(['worker'])
    await api.start(['api'])
    try {
      const pool = (worker.registries.outputs.get('pdf') as PdfOutput).pool
      expect(await pool.browserPid()).toBeGreaterThan(0)
      expect(await health(api)).toEqual({ ok: true, detail: 'the browser starts with the first render' })
      expect((await health(worker)).detail).toMatch(/renders on this browser/)
    } finally {
      await api.stop(['api'])
      await worker.stop(['worker'])
    }
  })
})
