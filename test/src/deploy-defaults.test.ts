import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// The shipped deployment files, read as text: helm and docker are not on the test machine, and
// what matters is what an operator gets by default.
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')

/** `KEY: value` of the chart's config section (values.yaml keeps it flat, one per line). */
function chartConfig(): Record<string, string> {
  const values = read('helm/docsvc/values.yaml')
  const section = /^config:\n((?: {2}.*\n|\n)*)/m.exec(values)?.[1] ?? ''
  const entries = [...section.matchAll(/^ {2}(DOCSVC_\w+):\s*"?([^"\n]*)"?\s*$/gm)]
  return Object.fromEntries(entries.map((m) => [m[1], m[2]]))
}

describe('Helm chart defaults', () => {
  it('believes X-Forwarded-For from nobody until the ingress range is set', () => {
    const config = chartConfig()
    expect(config).toHaveProperty('DOCSVC_TRUSTED_PROXIES')
    expect(config.DOCSVC_TRUSTED_PROXIES).toBe('')
  })
})
