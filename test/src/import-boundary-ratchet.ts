/**
 * The import-boundary violations that existed when the rules were written (decision 0032). The
 * test fails on a violation not listed here and on a listed one that is gone, so this list only
 * shrinks: fix an import, delete its line. Never add a line to make a new import pass — route it
 * through the SDK, an extension point, or the other feature's service instead.
 */

export interface KnownViolation {
  /** the importing file, root-relative */
  readonly file: string
  /** the module specifier as written, or `table <name>` for a query on another feature's table */
  readonly imports: string
  readonly reason: string
  /** the issue-14 item whose work removes it */
  readonly removedBy: string
}

export const KNOWN_VIOLATIONS: readonly KnownViolation[] = [
  {
    file: 'core/src/kernel/feature-lifecycle.test.ts',
    imports: '@docsvc/queue-sqlite',
    reason: 'a core test kernel loads the real SQLite queue plugin',
    removedBy: 'item 6 (test kernels get plugins through @docsvc/core/testing)',
  },
  {
    file: 'core/src/pdf-tools/pdf-protect-fields.test.ts',
    imports: '@docsvc/pdf-tools',
    reason: 'a core test kernel loads the real plugin now that core reaches it through a registry',
    removedBy: 'item 6 (test kernels get plugins through @docsvc/core/testing)',
  },
  {
    file: 'core/src/pdf-tools/pdf-protect-fields.test.ts',
    imports: '@docsvc/queue-sqlite',
    reason: 'a core test kernel loads the real plugin now that core reaches it through a registry',
    removedBy: 'item 6 (test kernels get plugins through @docsvc/core/testing)',
  },
  {
    file: 'core/src/renders/fake-render-plugins.fixture.ts',
    imports: '@docsvc/image-canvas',
    reason: 'a core test kernel loads the real plugin now that core reaches it through a registry',
    removedBy: 'item 6 (test kernels get plugins through @docsvc/core/testing)',
  },
  {
    file: 'core/src/renders/fake-render-plugins.fixture.ts',
    imports: '@docsvc/input-html',
    reason: 'a core test kernel loads the real plugin now that core reaches it through a registry',
    removedBy: 'item 6 (test kernels get plugins through @docsvc/core/testing)',
  },
  {
    file: 'core/src/renders/fake-render-plugins.fixture.ts',
    imports: '@docsvc/input-markdown',
    reason: 'a core test kernel loads the real plugin now that core reaches it through a registry',
    removedBy: 'item 6 (test kernels get plugins through @docsvc/core/testing)',
  },
  {
    file: 'core/src/templates/template-engine-plugins.test.ts',
    imports: '@docsvc/queue-sqlite',
    reason: 'a core test kernel loads the real plugin now that core reaches it through a registry',
    removedBy: 'item 6 (test kernels get plugins through @docsvc/core/testing)',
  },
  // core imports a plugin or provider
  // core tests boot real plugins; they belong in test/ or use fakes
  {
    file: 'core/src/health/readiness.test.ts',
    imports: '@docsvc/queue-sqlite',
    reason: 'readiness test boots the real SQLite queue',
    removedBy: 'item 3',
  },
  {
    file: 'core/src/kernel/plugins/plugin-loader.test.ts',
    imports: '@docsvc/queue-sqlite',
    reason: 'plugin loader test loads the real SQLite queue plugin',
    removedBy: 'item 3',
  },
  {
    file: 'core/src/queue/pgboss-settings.test.ts',
    imports: '@docsvc/queue-pgboss',
    reason: "pg-boss settings test boots the real pg-boss plugin's config section",
    removedBy: 'item 3',
  },
  {
    file: 'core/src/queue/select-queue.test.ts',
    imports: '@docsvc/queue-pgboss',
    reason: 'queue selection test uses the real pg-boss plugin',
    removedBy: 'item 3',
  },
  {
    file: 'core/src/renders/fake-render-plugins.fixture.ts',
    imports: '@docsvc/chromium',
    reason: 'render fixture registers the real chromium plugin',
    removedBy: 'item 3',
  },
  {
    file: 'core/src/renders/fake-render-plugins.fixture.ts',
    imports: '@docsvc/queue-pgboss',
    reason: 'render fixture registers the real pg-boss queue',
    removedBy: 'item 3',
  },
  {
    file: 'core/src/renders/fake-render-plugins.fixture.ts',
    imports: '@docsvc/queue-sqlite',
    reason: 'render fixture registers the real SQLite queue',
    removedBy: 'item 3',
  },
  {
    file: 'core/src/test-mark/test-mark.test.ts',
    imports: '../../../test/src/pdf-tools.ts',
    reason: "a core test reads PDFs with the integration suite's helper",
    removedBy: 'item 6 (move the PDF helper into @docsvc/core/testing)',
  },
  // a plugin or provider reaches past the SDK
  {
    file: 'plugins/chromium/bench/raw-vs-pool.ts',
    imports: '../../../core/src/net/outbound-guard.ts',
    reason: "the benchmark builds core's outbound guard directly",
    removedBy: 'item 4 (a guard factory in @docsvc/core/testing)',
  },
  {
    file: 'plugins/chromium/src/chromium-plugin.test.ts',
    imports: '../../../core/src/kernel/plugins/plugin-loader.ts',
    reason: "the plugin's test calls core's plugin loader",
    removedBy: 'item 2 (one manifest, loadable from @docsvc/core/testing)',
  },
  {
    file: 'plugins/chromium/src/chromium-plugin.test.ts',
    imports: '../../../core/src/net/outbound-guard.ts',
    reason: "the plugin's test builds core's outbound guard directly",
    removedBy: 'item 4 (a guard factory in @docsvc/core/testing)',
  },
  {
    file: 'plugins/chromium/src/chromium-sandbox.test.ts',
    imports: '../../../core/src/net/outbound-guard.ts',
    reason: "the plugin's test builds core's outbound guard directly",
    removedBy: 'item 4 (a guard factory in @docsvc/core/testing)',
  },
  {
    file: 'plugins/chromium/src/chromium-test-support.ts',
    imports: '../../../core/src/net/outbound-guard.ts',
    reason: "the plugin's test support builds core's outbound guard directly",
    removedBy: 'item 4 (a guard factory in @docsvc/core/testing)',
  },
  {
    file: 'plugins/chromium/src/guard-refusal.test.ts',
    imports: '../../../core/src/net/outbound-guard.ts',
    reason: "the plugin's test builds core's outbound guard directly",
    removedBy: 'item 4 (a guard factory in @docsvc/core/testing)',
  },
  {
    file: 'plugins/image-canvas/src/render-scene.test.ts',
    imports: '../../../test/src/pdf-tools.ts',
    reason: "the plugin's test reads PDFs with the integration suite's helper",
    removedBy: 'item 6 (move the PDF helper into @docsvc/core/testing)',
  },
  {
    file: 'plugins/input-html/src/templating/templating-over-http.test.ts',
    imports: '@docsvc/queue-pgboss',
    reason: 'an over-HTTP test inside the plugin boots the real queues',
    removedBy: 'item 3 (move it to test/)',
  },
  {
    file: 'plugins/input-html/src/templating/templating-over-http.test.ts',
    imports: '@docsvc/queue-sqlite',
    reason: 'an over-HTTP test inside the plugin boots the real queues',
    removedBy: 'item 3 (move it to test/)',
  },
  {
    file: 'plugins/input-markdown/src/markdown-input.ts',
    imports: '@docsvc/input-html/templating',
    reason: 'markdown renders Liquid with the HTML plugin instead of a templating extension point',
    removedBy: 'item 3',
  },
  {
    file: 'plugins/pdf-tools/src/flat-page-count.test.ts',
    imports: '../../../test/src/pdf-tools.ts',
    reason: "the plugin's test reads PDFs with the integration suite's helper",
    removedBy: 'item 6 (move the PDF helper into @docsvc/core/testing)',
  },
  {
    file: 'plugins/pdf-tools/src/page-bound.test.ts',
    imports: '../../../test/src/pdf-tools.ts',
    reason: "the plugin's test reads PDFs with the integration suite's helper",
    removedBy: 'item 6 (move the PDF helper into @docsvc/core/testing)',
  },
  {
    file: 'providers/filestore-s3/src/s3-file-store.test.ts',
    imports: '../../../core/src/files/file-store-contract.ts',
    reason: "the provider's test runs the file store contract from core's inside",
    removedBy: 'item 4 (StorageProvider contract kit in @docsvc/core/testing)',
  },
]
