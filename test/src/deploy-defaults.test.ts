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

describe('Chromium in the image and the chart', () => {
  it('the image runs as a non-root user, by number', () => {
    const users = [...read('docker/Dockerfile').matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1] as string)
    const last = users.at(-1) ?? 'root'
    expect(last).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/)
  })

  it('never switches the sandbox off, in any shipped file', () => {
    for (const file of [
      'docker/Dockerfile',
      'docker/compose.yaml',
      'helm/docsvc/values.yaml',
      'helm/docsvc/templates/_helpers.tpl',
      'helm/docsvc/templates/deployment-worker.yaml',
    ]) {
      expect(read(file)).not.toMatch(/CHROMIUM_SANDBOX\W+(false|0|no|off)|--no-sandbox/i)
    }
  })

  it('every pod of the chart runs as non-root without privilege escalation', () => {
    const values = read('helm/docsvc/values.yaml')
    expect(values).toMatch(/^podSecurityContext:\n(?: {2}.*\n)*? {2}runAsNonRoot: true$/m)
    expect(values).toMatch(/^podSecurityContext:\n(?: {2}.*\n)*? {2}runAsUser: [1-9]\d*$/m)
    expect(values).toMatch(/^containerSecurityContext:\n(?: {2}.*\n)*? {2}allowPrivilegeEscalation: false$/m)
    for (const template of ['deployment-worker.yaml', 'deployment-api.yaml', 'migrate-job.yaml']) {
      const text = read(`helm/docsvc/templates/${template}`)
      expect(text).toContain('securityContext: {{- toYaml .Values.podSecurityContext | nindent 8 }}')
      expect(text).toContain('{{- toYaml .Values.containerSecurityContext | nindent 12 }}')
    }
  })
})
