import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkExample } from './check-example.ts'
import type { CurlExample } from './curl-examples.ts'
import { type DocsKernel, startDocsKernel } from './docs-kernel.ts'
import { ExampleShell } from './run-shell.ts'

/**
 * One test per page: its examples run in order against one docs kernel, each answer checked
 * against the documented one; values an answer binds (`"$RENDER_ID"`) serve the page's later
 * examples.
 */
export function describeExamples(title: string, pages: { name: string; examples: CurlExample[] }[]): void {
  describe(title, () => {
    let docs: DocsKernel
    let shell: ExampleShell

    beforeAll(async () => {
      docs = await startDocsKernel()
      shell = new ExampleShell(docs.env)
    })
    afterAll(async () => {
      shell?.close()
      await docs?.t.close()
    })

    for (const page of pages) {
      it(page.name, { timeout: 300_000 }, async () => {
        const bindings: Record<string, string> = {}
        for (const example of page.examples) {
          expect(await checkExample(shell, example, bindings)).toBeUndefined()
        }
      })
    }
  })
}
