import type { TestDialect } from '../../../core/src/testing/index.ts'
import { WebhookReceiver } from '../webhooks-receiver.ts'
import { CrashCluster, type LiveWorkspace } from './crash-cluster.ts'
import { type CrashFigures, openInstallationDb, readFigures, waitUntilSettled } from './invariants.ts'
import { type KillRecord, planKills, runKills } from './killer.ts'
import { LoadDriver, type LoadFigures } from './load-driver.ts'

// One crash-and-restart run: an installation of real processes, a webhook endpoint on a local
// receiver, a steady load of renders, kill -9 of its processes at seeded moments with restarts,
// then a bounded wait for everything to settle and the figures the invariants are judged on.
// Later suites (plans, batches, packaging) bring their own workload and keep the rest.

export interface ScenarioContext {
  cluster: CrashCluster
  workspace: LiveWorkspace
  /** a JSON call to the API with the workspace's live key; throws on a non-2xx answer */
  api(method: string, path: string, body?: object): Promise<Record<string, unknown>>
}

/** What the load sends: the body of the n-th `POST /v1/renders`. */
export interface Workload {
  body(n: number): object
}

export interface CrashScenarioOptions {
  dialect: TestDialect
  seed: number
  /** how long the load runs; the kills fall inside it */
  loadMs: number
  kills: number
  /** the longest wait for every accepted render and event to settle after the load */
  settleTimeoutMs: number
  loops?: number
  pauseMs?: number
  env?: Record<string, string>
  /** default: an image_canvas template drawn without a browser */
  workload?: (ctx: ScenarioContext) => Promise<Workload>
}

export interface CrashReport {
  dialect: TestDialect
  seed: number
  load: LoadFigures
  kills: KillRecord[]
  figures: CrashFigures
  /** ms from the end of the load until everything settled; null when it never did */
  settledAfterMs: number | null
  /** renders this cycle as GET /v1/account shows them to the client */
  usageShown: number
  /** ms spent setting up, under load (kills included), and in all */
  timings: { setupMs: number; loadMs: number; totalMs: number }
  /** output tails of the processes, for a failure message */
  logs(): string
}

const CARD_SCENE = {
  width: 160,
  height: 48,
  background: '#ffffff',
  layers: [
    { type: 'rectangle', name: 'bar', x: 0, y: 0, width: 60, height: 8, fill: '#0000ff' },
    { type: 'text', name: 'title', x: 4, y: 12, width: 152, height: 32, text: 'Card', required: ['text'] },
  ],
}

/**
 * Renders of a small published image_canvas template: mostly async, every fifth sync (the API
 * waits for the worker), and every tenth without its required data, so it fails in the worker
 * (a render.failed event, nothing billed).
 */
export async function canvasWorkload(ctx: ScenarioContext): Promise<Workload> {
  const template = await ctx.api('POST', '/v1/templates', {
    type: 'image_canvas',
    name: 'Crash card',
    content: CARD_SCENE,
    sample_data: { 'title.text': 'Sample' },
  })
  await ctx.api('POST', `/v1/templates/${template.id}/publish`)
  return {
    body: (n) => ({
      input: { type: 'template', template_id: template.id },
      output: { format: 'png' },
      mode: n % 5 === 0 ? 'sync' : 'async',
      ...(n % 10 === 3 ? {} : { data: { 'title.text': `Render ${n}` } }),
      overrides: [{ name: 'bar', width: 1 + (n % 159) }],
    }),
  }
}

/** A JSON caller of one API with one key; throws on a non-2xx answer. */
export function apiCaller(baseUrl: string, key: string): ScenarioContext['api'] {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  }
}

export async function runCrashScenario(options: CrashScenarioOptions): Promise<CrashReport> {
  const began = Date.now()
  const cluster = await CrashCluster.create({
    dialect: options.dialect,
    ...(options.env ? { env: options.env } : {}),
  })
  const receiver = new WebhookReceiver({ tls: cluster.tls })
  const db = openInstallationDb(cluster.env)
  let load: LoadDriver | undefined
  try {
    const receiverUrl = await receiver.start()
    const workspace = await cluster.liveWorkspace()
    await cluster.start()
    const api = apiCaller(cluster.baseUrl, workspace.liveKey)
    const ctx: ScenarioContext = { cluster, workspace, api }
    const endpoint = await api('POST', '/v1/webhook-endpoints', {
      url: `${receiverUrl}/ok`,
      events: ['render.succeeded', 'render.failed'],
    })
    receiver.secrets = [endpoint.secret as string]
    const workload = await (options.workload ?? canvasWorkload)(ctx)

    const plan = planKills({
      seed: options.seed,
      kills: options.kills,
      targets: cluster.processes.map((p) => p.spec.name),
      fromMs: 1_000,
      toMs: Math.max(1_001, options.loadMs - 1_000),
    })
    load = new LoadDriver({
      baseUrl: cluster.baseUrl,
      key: workspace.liveKey,
      loops: options.loops ?? 2,
      pauseMs: options.pauseMs ?? 150,
      body: workload.body,
    })
    const startedAt = Date.now()
    load.start()
    const killing = runKills(plan, cluster.processes, startedAt)
    // the load runs its time even when the kills end early, and stops only after the last restart
    const [kills] = await Promise.all([
      killing,
      new Promise((resolve) => setTimeout(resolve, options.loadMs)),
    ])
    const loadFigures = await load.stop()
    const { accepted } = load
    const loadMs = Date.now() - startedAt

    const delivered = {
      eventIds: () =>
        receiver.received.filter((r) => r.verifiedBy.length > 0).map((r) => String(r.headers['webhook-id'])),
    }
    const { figures, settledAfterMs } = await waitUntilSettled(
      () => readFigures(db, workspace.id, accepted, delivered),
      options.settleTimeoutMs,
    )
    const account = await api('GET', '/v1/account')
    return {
      dialect: options.dialect,
      seed: options.seed,
      load: loadFigures,
      kills,
      figures,
      settledAfterMs,
      usageShown: (account.usage as { renders: number }).renders,
      timings: { setupMs: startedAt - began, loadMs, totalMs: Date.now() - began },
      logs: () => cluster.processes.map((p) => `== ${p.spec.name}\n${lastLines(p.output())}`).join('\n'),
    }
  } finally {
    // a failed restart ends the run: the load must not go on against a closed installation
    await load?.stop()
    await db.close().catch(() => {})
    await cluster.close()
    await receiver.close()
  }
}

/** The last lines of a process's output, each cut short: enough to see why it stopped. */
function lastLines(output: string, lines = 15, width = 300): string {
  return output
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((line) => (line.length > width ? `${line.slice(0, width)}…` : line))
    .join('\n')
}

/** The figures as the test prints them. */
export function formatReport(r: CrashReport): string {
  const f = r.figures
  const kills = r.kills.map((k) => `${k.target}@${k.atMs}ms`).join(', ')
  return [
    `crash-restart ${r.dialect} seed=${r.seed}`,
    `  load: sent ${r.load.sent}, accepted ${r.load.accepted}, unanswered ${r.load.unanswered}, other ${JSON.stringify(r.load.statuses)}`,
    `  kills survived: ${r.kills.length} (${kills})`,
    `  renders accepted ${f.accepted}, final ${f.final}, lost ${f.lost}, final twice ${f.finalTwice}, by status ${JSON.stringify(f.byStatus)}`,
    `  billed twice ${f.billedTwice}, billed but not succeeded ${f.billedNotSucceeded}, succeeded unbilled ${f.succeededNotBilled}; usage shows ${r.usageShown} for ${f.succeededLive} succeeded`,
    `  events expected ${f.eventsExpected}, delivered ${f.eventsDelivered} (${f.duplicateDeliveries} duplicate deliveries)`,
    `  reservations open ${f.reservations}, astray ${f.reservationsAstray}, counter drift ${f.reservedCounterDrift}`,
    `  created without an answer ${f.unansweredRenders} (not final: ${f.unansweredStuck}, of them without a job: ${f.unansweredWithoutJob})`,
    `  settled ${r.settledAfterMs === null ? 'NEVER' : `${r.settledAfterMs} ms`} after the load; setup ${r.timings.setupMs} ms, load ${r.timings.loadMs} ms, all ${r.timings.totalMs} ms`,
  ].join('\n')
}
