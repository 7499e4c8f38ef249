#!/usr/bin/env node
// docsvc admin CLI. The sources are TypeScript run by Node 24's type stripping; an older Node
// hands over to the Node 24 that scripts/env.sh puts in .tools/node.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import module from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const major = Number(process.versions.node.split('.')[0])
if (major < 24) {
  const here = dirname(fileURLToPath(import.meta.url))
  const node24 = join(here, '..', '..', '.tools', 'node', 'bin', 'node')
  if (!existsSync(node24)) {
    process.stderr.write(
      `docsvc needs Node.js 24 or newer (this is ${process.version}); run npm start once to fetch it\n`,
    )
    process.exit(1)
  }
  const child = spawn(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  // a supervisor's SIGTERM reaches only this process: pass it on so `serve` shuts down cleanly.
  // Ctrl-C already reaches the child through the terminal's process group, so SIGINT only waits.
  const forward = (signal) => child.kill(signal)
  process.on('SIGTERM', forward)
  process.on('SIGHUP', forward)
  process.on('SIGINT', () => {})
  child.on('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1)
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  })
} else {
  // file writes with their flushes, DNS and crypto share libuv's pool: 4 threads (the default)
  // make a split's 200 stored files wait in line. Read when the pool first starts, i.e. later.
  process.env.UV_THREADPOOL_SIZE ??= '16'
  // every command loads the whole kernel; Node's on-disk compile cache makes repeat runs faster
  module.enableCompileCache?.()
  // not a top-level await: a closed stdout pipe (docsvc ... | head) would report it as unsettled
  import('@oclif/core').then(({ execute }) => execute({ dir: import.meta.url }))
}
