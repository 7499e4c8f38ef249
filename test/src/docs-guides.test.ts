import { describe, expect, it } from 'vitest'
import { DOCS_ROOT, type Guide, loadGuides } from '../../core/src/docs-site/docs-content.ts'
import { curlExamples } from './docs-examples/curl-examples.ts'
import { describeExamples } from './docs-examples/describe-examples.ts'
import { brokenLinks } from './docs-examples/doc-links.ts'
import { fencedBlocks } from './docs-examples/markdown-blocks.ts'

// Every example of the guides (docs/guides/*.md), run exactly as printed with curl against a
// kernel with the built-in plugins, each answer checked against the one the guide shows.

// The tasks the site must have a guide for (issue 15): a guide that goes missing fails here.
const TASKS = [
  'first-render',
  'templates',
  'pdf-options',
  'images',
  'waiting-for-scripts',
  'fonts',
  'webhooks',
  'pdf-tools',
  'errors',
]

const guides = loadGuides()

function examplesOf(guide: Guide) {
  const file = `docs/guides/${guide.file}`
  return curlExamples(fencedBlocks(guide.markdown, file), file)
}

describe('the guides', () => {
  it('cover every task, each with examples', () => {
    expect(guides.map((g) => g.slug)).toEqual(expect.arrayContaining(TASKS))
    for (const guide of guides) {
      expect(examplesOf(guide).length, guide.file).toBeGreaterThan(0)
    }
  })

  it('link only to pages that exist', () => {
    for (const guide of guides) {
      expect(brokenLinks(guide.markdown, `${DOCS_ROOT}guides`), guide.file).toEqual([])
    }
  })
})

describeExamples(
  'examples of the guides, run as printed',
  guides.map((guide) => ({ name: guide.slug, examples: examplesOf(guide) })),
)
