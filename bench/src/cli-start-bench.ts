// node bench/src/cli-start-bench.ts: the wall time of an admin command, `docsvc key list --json`
// on a SQLite data dir with one workspace and one key, next to (a) the floor, `docsvc --version`
// (Node, oclif and the command table, no kernel), and (b) the same listing through a full api
// composition, the boot every admin command paid before decision 0035 (Fastify, every plugin and
// feature module). BENCH_BASELINE_ROOT=<a checkout of the commit before 0035 (490d4af), with a
// node_modules whose @docsvc/* links point into that checkout> adds (c) the same command there.
// One process per run, the sides taking turns. Figures, not a test.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { measureInTurn, type RunStats } from './stats.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
const run = promisify(execFile)

const dataDir = mkdtempSync(path.join(tmpdir(), 'docsvc-cli-bench-'))
const env = { ...process.env, DOCSVC_DATA_DIR: dataDir, DOCSVC_FIRST_RUN: 'false', DOCSVC_LOG_LEVEL: 'warn' }

async function docsvc(...args: string[]): Promise<string> {
  return docsvcOf(ROOT, ...args)
}

async function docsvcOf(root: string, ...args: string[]): Promise<string> {
  return (
    await run(process.execPath, [path.join(root, 'cli', 'bin', 'docsvc.js'), ...args], { cwd: root, env })
  ).stdout
}

// what withKernel did before: the kernel with every built-in plugin, every feature and the app
const FULL_BOOT = `
import { createKernel, loadConfig } from '@docsvc/core'
const kernel = await createKernel({ config: loadConfig(process.env), env: process.env, roles: ['api'] })
const keys = await kernel.container.cradle.apiKeyService.list(process.argv[1])
await kernel.close()
process.stdout.write(JSON.stringify(keys))
`

try {
  // admin commands use an existing database and never create one
  await docsvc('migrate')
  const workspace = JSON.parse(await docsvc('workspace', 'create', '--name', 'Bench', '--json')) as {
    id: string
  }
  await docsvc('key', 'create', '--workspace', workspace.id, '--name', 'bench', '--mode', 'live', '--json')
  const listed = JSON.parse(await docsvc('key', 'list', '--workspace', workspace.id, '--json')) as unknown[]
  if (listed.length !== 1) throw new Error(`key list printed ${listed.length} keys, expected 1`)
  const sides = [
    { task: async () => void (await docsvc('key', 'list', '--workspace', workspace.id, '--json')) },
    { task: async () => void (await docsvc('--version')) },
    {
      task: async () =>
        void (await run(process.execPath, ['--input-type=module', '-e', FULL_BOOT, workspace.id], {
          cwd: ROOT,
          env,
        })),
    },
  ]
  if (BASELINE_ROOT) {
    sides.push({
      task: async () =>
        void (await docsvcOf(BASELINE_ROOT, 'key', 'list', '--workspace', workspace.id, '--json')),
    })
  }
  // the first runs fill Node's compile cache and the OS page cache
  await measureInTurn(2, sides)
  const [cli, floor, full, baseline] = (await measureInTurn(RUNS, sides)) as [
    RunStats,
    RunStats,
    RunStats,
    RunStats?,
  ]
  console.log(
    `docsvc key list --json on SQLite (1 workspace, 1 key), ${RUNS} runs per side taking turns, ` +
      `${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(1)}, ${new Date().toISOString().slice(0, 10)}`,
  )
  console.log('\n| side | p50 ms | p95 ms |\n|---|---:|---:|')
  console.log(`| docsvc key list --json (cli composition) | ${cli.p50.toFixed(0)} | ${cli.p95.toFixed(0)} |`)
  console.log(
    `| same listing, full api composition (the boot before 0035) | ${full.p50.toFixed(0)} | ${full.p95.toFixed(0)} |`,
  )
  if (baseline) {
    console.log(
      `| docsvc key list --json at ${BASELINE_ROOT} (before 0035) | ${baseline.p50.toFixed(0)} | ${baseline.p95.toFixed(0)} |`,
    )
  }
  console.log(`| floor: docsvc --version (no kernel) | ${floor.p50.toFixed(0)} | ${floor.p95.toFixed(0)} |`)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
