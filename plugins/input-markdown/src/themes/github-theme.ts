/** `github`: the look of a README on GitHub. */
export const GITHUB_THEME = `
.markdown-body {
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, "Liberation Sans", sans-serif;
  font-size: 16px; line-height: 1.5; color: #1f2328;
}
.markdown-body h1, .markdown-body h2, .markdown-body h3,
.markdown-body h4, .markdown-body h5, .markdown-body h6 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
.markdown-body h1 { font-size: 2em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
.markdown-body h2 { font-size: 1.5em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
.markdown-body h3 { font-size: 1.25em; }
.markdown-body h4 { font-size: 1em; }
.markdown-body h5 { font-size: 0.875em; }
.markdown-body h6 { font-size: 0.85em; color: #59636e; }
.markdown-body p, .markdown-body blockquote, .markdown-body ul, .markdown-body ol,
.markdown-body dl, .markdown-body table, .markdown-body pre { margin: 0 0 16px; }
.markdown-body ul, .markdown-body ol { padding-left: 2em; }
.markdown-body li + li { margin-top: 0.25em; }
.markdown-body a { color: #0969da; text-decoration: none; }
.markdown-body code {
  font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
  font-size: 85%; padding: 0.2em 0.4em; background: rgba(129, 139, 152, 0.12); border-radius: 6px;
}
.markdown-body pre { padding: 16px; font-size: 85%; line-height: 1.45; background: #f6f8fa; border-radius: 6px; }
.markdown-body pre code { padding: 0; background: transparent; font-size: 100%; }
.markdown-body blockquote { padding: 0 1em; color: #59636e; border-left: 0.25em solid #d1d9e0; }
.markdown-body table { display: table; width: auto; max-width: 100%; }
.markdown-body th, .markdown-body td { padding: 6px 13px; border: 1px solid #d1d9e0; }
.markdown-body th { font-weight: 600; }
.markdown-body tr { background: #ffffff; border-top: 1px solid #d1d9e0; }
.markdown-body tbody tr:nth-child(2n) { background: #f6f8fa; }
.markdown-body hr { height: 0.25em; padding: 0; margin: 24px 0; background: #d1d9e0; border: 0; }
`
