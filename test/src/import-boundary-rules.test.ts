import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findViolations } from './import-boundary-rules.ts'
import { buildImportGraph } from './import-graph.ts'

// Each rule of decision 0032 on a small made-up repository: what it flags and what it lets pass.

const root = mkdtempSync(join(tmpdir(), 'docsvc-boundaries-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}
const manifest = (name: string, exports: unknown): string => JSON.stringify({ name, exports })

write('package.json', JSON.stringify({ workspaces: ['core', 'plugins/*', 'providers/*'] }))
write(
  'core/package.json',
  manifest('@docsvc/core', {
    '.': './src/index.ts',
    './sdk': './src/sdk/index.ts',
    './testing': './src/testing/index.ts',
  }),
)
write('core/src/index.ts', "export * from './sdk/index.ts'\n")
write('core/src/sdk/index.ts', 'export const sdk = 1\n')
write('core/src/testing/index.ts', 'export const kit = 1\n')
write(
  'core/src/composition/standard-plugins.ts',
  "import { plugin } from '@docsvc/fancy'\nexport const standard = [plugin]\n",
)
write('core/src/renders/render-repository.ts', 'export class RenderRepository {}\n')
write('core/src/renders/render-tables.ts', 'export interface RenderTable {}\n')
write('core/src/renders/index.ts', "export { RenderRepository } from './render-repository.ts'\n")
write('core/src/renders/render-service.ts', "import { RenderRepository } from './render-repository.ts'\n")
write(
  'core/src/webhooks/dispatcher.ts',
  [
    "import type { RenderRepository } from '../renders/render-repository.ts'",
    "import type { RenderTable } from '../renders/render-tables.ts'",
    "import { RenderRepository as Again } from '../renders/index.ts'",
    "import { RenderService } from '../renders/render-service.ts'",
    "const chromium = await import('@docsvc/fancy')",
    "import { x } from '../../../plugins/fancy/src/x.ts'",
    "const rows = await db.selectFrom('renders as r').innerJoin('webhook_endpoints', 'a', 'b')",
    "await db.insertInto('not_a_known_table')",
    "const plan = await db.selectFrom('workspaces').innerJoin('plans', 'a', 'b')",
  ].join('\n'),
)
write('core/src/plans/plan-repository.ts', "await db.selectFrom('plans').selectAll()\n")
write('core/src/webhooks/dispatcher.test.ts', "await db.insertInto('renders').values(row)\n")
write('core/src/testing/seed.ts', "await db.insertInto('renders').values(row)\n")
write('plugins/fancy/package.json', manifest('@docsvc/fancy', './src/index.ts'))
write('plugins/fancy/src/index.ts', "import { sdk } from '@docsvc/core/sdk'\nimport { x } from './x.ts'\n")
write(
  'plugins/fancy/src/x.ts',
  [
    "import { kit } from '@docsvc/core/testing'",
    "import { all } from '@docsvc/core'",
    "import { deep } from '@docsvc/core/src/renders/render-service.ts'",
    "import { guard } from '../../../core/src/net/guard.ts'",
    "import { q } from '@docsvc/queue'",
    "import { ghost } from '@docsvc/not-in-this-repo'",
    "import { self } from '@docsvc/fancy'",
    "import { Type } from 'typebox'",
  ].join('\n'),
)
write(
  'plugins/fancy/src/x.test.ts',
  "import { kit } from '@docsvc/core/testing'\nimport { sdk } from '@docsvc/core/sdk'\n",
)
write('providers/queue/package.json', manifest('@docsvc/queue', { '.': { import: './src/index.ts' } }))
write('providers/queue/src/index.ts', "export { sdk } from '@docsvc/core/sdk'\n")

describe('findViolations', () => {
  const graph = buildImportGraph({ root, folders: ['core', 'plugins/*', 'providers/*'] })
  const found = findViolations(graph).map((v) => `${v.rule} ${v.file} -> ${v.imports}`)

  it('flags each kind of violation and nothing else', () => {
    expect(found).toEqual([
      'core-no-extension core/src/webhooks/dispatcher.ts -> ../../../plugins/fancy/src/x.ts',
      'feature-owns-data core/src/webhooks/dispatcher.ts -> ../renders/index.ts',
      'feature-owns-data core/src/webhooks/dispatcher.ts -> ../renders/render-repository.ts',
      'feature-owns-data core/src/webhooks/dispatcher.ts -> ../renders/render-tables.ts',
      'core-no-extension core/src/webhooks/dispatcher.ts -> @docsvc/fancy',
      'feature-owns-data core/src/webhooks/dispatcher.ts -> table not_a_known_table',
      'feature-owns-data core/src/webhooks/dispatcher.ts -> table plans',
      'feature-owns-data core/src/webhooks/dispatcher.ts -> table renders',
      'feature-owns-data core/src/webhooks/dispatcher.ts -> table workspaces',
      'extension-sdk-only plugins/fancy/src/x.ts -> ../../../core/src/net/guard.ts',
      'extension-sdk-only plugins/fancy/src/x.ts -> @docsvc/core',
      'extension-sdk-only plugins/fancy/src/x.ts -> @docsvc/core/src/renders/render-service.ts',
      'extension-sdk-only plugins/fancy/src/x.ts -> @docsvc/core/testing',
      'extension-sdk-only plugins/fancy/src/x.ts -> @docsvc/not-in-this-repo',
      'extension-sdk-only plugins/fancy/src/x.ts -> @docsvc/queue',
    ])
  })
})
