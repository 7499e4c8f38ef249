import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { withKernel } from '../../../cli/src/admin-context.ts'
import { cliDatabase } from '../../../cli/src/cli-test-support.ts'
import type { TestDialect } from '../../../core/src/testing/index.ts'
import { ServiceProcess } from './service-process.ts'

// An installation made of real docsvc processes on a throwaway database: SQLite (embedded:
// `serve` runs the API and a worker, a second `worker` process shares the file) or PostgreSQL
// (cluster: `serve --no-worker` and two `worker` processes); or, with `servers`, that many
// `serve` processes side by side, each with its own port, API and worker, as README's cluster
// mode runs "as many `docsvc serve` processes as you need". Migrated and set up in-process with
// the admin CLI's own kernel (each CLI run is a full boot, slow on a busy machine); the
// harness's other parts (load, killer, checker) work on it.

export interface CrashClusterOptions {
  dialect: TestDialect
  /** extra DOCSVC_* settings for every process */
  env?: Record<string, string>
  /** this many `serve` processes (API and worker each, ports of their own) instead of the layout above */
  servers?: number
}

export interface LiveWorkspace {
  id: string
  liveKey: string
  testKey: string
}

/**
 * Ports free now, distinct (each held open until all are found); an API gets its port again at
 * every restart, so the load driver's URL stays.
 */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer())
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))))
  const ports = servers.map((s) => (s.address() as { port: number }).port)
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
  return ports
}

/** A self-signed certificate for 127.0.0.1: live webhook endpoints must be https. */
function localCertificate(dir: string): { key: Buffer; cert: Buffer; certPath: string } {
  const keyPath = path.join(dir, 'receiver-key.pem')
  const certPath = path.join(dir, 'receiver-cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  )
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath }
}

export class CrashCluster {
  readonly dialect: TestDialect
  /** the first API's URL: the one API of the crash layouts */
  readonly baseUrl: string
  /** every API's URL, in the order of `processes` */
  readonly baseUrls: string[]
  /** every process of the installation; the API (the first `serve`) first */
  readonly processes: ServiceProcess[]
  readonly env: Record<string, string>
  readonly tls: { key: Buffer; cert: Buffer }
  readonly #cleanup: () => Promise<void>

  private constructor(init: {
    dialect: TestDialect
    baseUrls: string[]
    processes: ServiceProcess[]
    env: Record<string, string>
    tls: { key: Buffer; cert: Buffer }
    cleanup: () => Promise<void>
  }) {
    this.dialect = init.dialect
    this.baseUrls = init.baseUrls
    this.baseUrl = init.baseUrls[0] as string
    this.processes = init.processes
    this.env = init.env
    this.tls = init.tls
    this.#cleanup = init.cleanup
  }

  static async create(options: CrashClusterOptions): Promise<CrashCluster> {
    const database = await cliDatabase(options.dialect)
    try {
      const apiPorts = await freePorts(options.servers ?? 1)
      const port = apiPorts[0] as number
      const { key, cert, certPath } = localCertificate(database.dataDir)
      const env: Record<string, string> = {
        ...database.env,
        DOCSVC_PORT: String(port),
        DOCSVC_HOST: '127.0.0.1',
        // the webhook receiver listens on loopback
        DOCSVC_NETWORK_ALLOW: '127.0.0.1/32',
        // a render's job lease is its timeout + 30 s: the shortest a crashed worker's render waits
        DOCSVC_RENDER_TIMEOUT_SECONDS: '5',
        // the load renders image_canvas templates, drawn without a browser: no worker starts a
        // Chromium that no render uses (two CPUs are shared by every test running)
        DOCSVC_CHROMIUM_PATH: '/bin/false',
        // migrated once below: processes booting side by side must not race to migrate
        DOCSVC_AUTO_MIGRATE: 'false',
        NODE_EXTRA_CA_CERTS: certPath,
        ...options.env,
      }
      await withKernel({ ...env, DOCSVC_AUTO_MIGRATE: 'true' }, async () => {})
      const processes = options.servers
        ? apiPorts.map(
            (apiPort, i) =>
              new ServiceProcess({
                name: `server-${i + 1}`,
                args: ['serve'],
                env: { ...env, DOCSVC_PORT: String(apiPort) },
              }),
          )
        : options.dialect === 'sqlite'
          ? [
              new ServiceProcess({ name: 'api', args: ['serve'], env }),
              new ServiceProcess({ name: 'worker-1', args: ['worker'], env }),
            ]
          : [
              new ServiceProcess({ name: 'api', args: ['serve', '--no-worker'], env }),
              new ServiceProcess({ name: 'worker-1', args: ['worker'], env }),
              new ServiceProcess({ name: 'worker-2', args: ['worker'], env }),
            ]
      return new CrashCluster({
        dialect: options.dialect,
        baseUrls: apiPorts.map((p) => `http://127.0.0.1:${p}`),
        processes,
        env,
        tls: { key, cert },
        cleanup: database.cleanup,
      })
    } catch (err) {
      await database.cleanup()
      throw err
    }
  }

  /**
   * A workspace on `plan` with a live key, a test key and a verified owner (live renders need
   * one); the plan's request rate raised for the load, and any other `limits` set.
   */
  async liveWorkspace(plan = 'growth', limits: Record<string, number> = {}): Promise<LiveWorkspace> {
    return withKernel(this.env, async ({ container }) => {
      const { planService, workspaceService, apiKeyService, memberService } = container.cradle
      await planService.change(plan, { limits: { requests_per_second: 10_000, ...limits } })
      const ws = await workspaceService.create({ name: 'Crash', plan })
      await memberService.add({
        workspaceId: ws.id,
        // one owner per workspace, as the test kit does (the free workspace limit, decision 0099)
        email: `owner+${ws.id}@example.com`,
        role: 'owner',
        verified: true,
      })
      const live = await apiKeyService.create({ workspaceId: ws.id, mode: 'live' })
      const test = await apiKeyService.create({ workspaceId: ws.id, mode: 'test' })
      return { id: ws.id, liveKey: live.key, testKey: test.key }
    })
  }

  process(name: string): ServiceProcess {
    const found = this.processes.find((p) => p.spec.name === name)
    if (!found) throw new Error(`no process ${name}`)
    return found
  }

  async start(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.start()))
  }

  /** kill -9 of everything: the figures are read by now, and a clean stop only costs time. */
  async close(): Promise<void> {
    await Promise.allSettled(this.processes.map((p) => p.kill()))
    await this.#cleanup()
  }
}
