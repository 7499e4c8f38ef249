#!/usr/bin/env node
// docsvc admin CLI. The sources are TypeScript run by Node 24's type stripping; an older Node
// hands over to the Node 24 that scripts/env.sh puts in .tools/node.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
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
  const child = spawnSync(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  process.exit(child.status ?? 1)
}

const { execute } = await import('@oclif/core')
await execute({ dir: import.meta.url })
