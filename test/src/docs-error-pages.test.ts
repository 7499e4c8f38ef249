import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DOCS_ROOT, loadErrorPages } from '../../core/src/docs-site/docs-content.ts'
import { PROBLEM_CODES, type ProblemCode } from '../../core/src/kernel/problem-codes.ts'
import { curlExamples } from './docs-examples/curl-examples.ts'
import { describeExamples } from './docs-examples/describe-examples.ts'
import { brokenLinks } from './docs-examples/doc-links.ts'
import { fencedBlocks } from './docs-examples/markdown-blocks.ts'

// One page per problem code (docs/errors/<code>.md), and on each page a wrong request that gets
// the code and the fixed request that succeeds, run as printed against a kernel with the built-in
// plugins. A code the examples' installation cannot produce is listed below with the reason; its
// page explains the cause and the fix without a runnable pair.

const NOT_PROVOKED: Partial<Record<ProblemCode, string>> = {
  render_limit_reached: 'needs a live workspace out of renders; billing is not part of this installation',
  plan_feature_unavailable:
    'every feature the plans gate (PDF/A, PDF/UA, e-invoices, email, batches) is not served yet',
  free_workspace_limit:
    'needs an address owning two Free workspaces, made through the admin API or CLI (core/src/members/free-workspace-limit.test.ts runs it)',
  email_not_verified:
    "needs a workspace with no verified owner, made through the admin API; the docs kernel's workspaces have one (core/src/members/members-api.test.ts runs it)",
  region_not_enabled: 'a single-region installation enables its region for every workspace',
  feature_not_enabled: 'email connections are not served yet',
  invalid_signature:
    'signed links are not served yet; a forged member verification link gives it (core/src/members/members-api.test.ts)',
  referrer_not_allowed: 'signed links are not served yet',
  request_timeout: 'needs a client that stalls mid-request, which curl as printed does not do',
  render_timeout:
    "needs a render slower than the plan's sync timeout: a test that waits that long is a timing test",
  idempotency_in_progress: 'needs two requests with one key at the same moment: a timing test',
  zero_retention: 'batches are not served yet',
  item_files_expired: 'batches are not served yet',
  email_connection_in_use: 'email connections are not served yet',
  email_file_expired: 'email sends are not served yet',
  email_not_resendable: 'email sends are not served yet',
  link_expired: 'needs a download link past its expiry time: a timing test',
  output_too_large: 'needs an output of over 20 MB: too slow for an example',
  page_limit_exceeded: "needs more pages than the plan's limit: too slow for an example",
  scene_invalid: 'covered by the canvas examples of docs/templates.md',
  email_template_error: 'email rules are not served yet',
  email_needs_hosted_file: 'email rules are not served yet',
  render_failed: 'the fallback when no specific code applies: a request that provokes it is a bug to fix',
  render_lost: 'needs a worker that dies mid-render; covered by the crash-restart harness',
  pdfua_validation_failed:
    'needs the PDF/UA step and a validator that rejects a document; the render tests provoke it with fixture plugins (core/src/renders/render-conformance.test.ts)',
  pdfa_conversion_failed:
    'needs the PDF/A step and a validator that rejects a document; the render tests provoke it with fixture plugins (core/src/renders/render-conformance.test.ts)',
  einvoice_invalid:
    "needs an e-invoice profile plugin, which the examples' installation lacks until plugins/einvoice lands (core/src/einvoices/einvoices.test.ts runs it)",
  einvoice_validation_failed:
    "needs an e-invoice profile plugin, which the examples' installation lacks until plugins/einvoice lands (core/src/einvoices/einvoices.test.ts runs it)",
  render_canceled: 'needs a cancel while a sync render runs: a timing test',
  template_locked: 'templates are locked by a hosted console, not through this API',
  rate_limited: "the examples' workspace has no rate limit in the way; covered by the rate-limit tests",
  concurrency_limited: 'needs many sync renders at the same moment: a timing test',
  quota_exceeded: 'signed links are not served yet',
  internal_error: 'a request that provokes it is a bug to fix',
  region_degraded: 'a single-region installation has no degraded mode',
  maintenance: 'maintenance mode is set by an operator of a hosted installation',
  service_unavailable: 'needs the database down or the process shutting down',
}

const pages = loadErrorPages()
const codes = Object.keys(PROBLEM_CODES) as ProblemCode[]

function examplesOf(code: string) {
  const file = `docs/errors/${code}.md`
  return curlExamples(fencedBlocks(pages.get(code) ?? '', file), file)
}

describe('error pages', () => {
  it('exist for every problem code, and only for those', () => {
    expect(codes.filter((code) => !pages.has(code))).toEqual([])
    const files = readdirSync(`${DOCS_ROOT}errors`).map((name) => name.replace(/\.md$/, ''))
    expect(files.filter((name) => !Object.hasOwn(PROBLEM_CODES, name))).toEqual([])
  })

  it('link only to pages that exist', () => {
    for (const [code, markdown] of pages) {
      expect(brokenLinks(markdown, `${DOCS_ROOT}errors`), code).toEqual([])
    }
  })

  it('carry a wrong and a fixed request unless the code is listed with a reason', () => {
    for (const code of codes) {
      const examples = examplesOf(code)
      if (NOT_PROVOKED[code]) {
        // a page that gained a runnable pair is taken off the list
        expect(examples, `${code} is listed as not provoked but has examples`).toEqual([])
        continue
      }
      const [status] = PROBLEM_CODES[code]
      const wrong = examples.filter(
        (e) => e.expected.status === status && (e.expected.body as { code?: string })?.code === code,
      )
      expect(
        wrong.length,
        `docs/errors/${code}.md shows no request answered ${status} ${code}`,
      ).toBeGreaterThan(0)
      const last = examples.at(-1)
      expect(
        last && last.expected.status < 300,
        `docs/errors/${code}.md ends without the fixed request`,
      ).toBe(true)
    }
  })
})

describeExamples(
  'examples of the error pages, run as printed',
  codes.filter((code) => !NOT_PROVOKED[code]).map((code) => ({ name: code, examples: examplesOf(code) })),
)
