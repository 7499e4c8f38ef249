/** `minimal`: system font, generous spacing, almost no decoration. */
export const MINIMAL_THEME = `
.markdown-body {
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "Noto Sans", sans-serif;
  font-size: 11pt; line-height: 1.6; color: #222;
}
.markdown-body h1, .markdown-body h2, .markdown-body h3,
.markdown-body h4, .markdown-body h5, .markdown-body h6 { font-weight: 600; line-height: 1.3; margin: 1.5em 0 0.5em; }
.markdown-body h1 { font-size: 1.6em; margin-top: 0; }
.markdown-body h2 { font-size: 1.3em; }
.markdown-body h3 { font-size: 1.1em; }
.markdown-body h4, .markdown-body h5, .markdown-body h6 { font-size: 1em; }
.markdown-body p, .markdown-body ul, .markdown-body ol, .markdown-body table,
.markdown-body pre, .markdown-body blockquote { margin: 0 0 1em; }
.markdown-body a { color: inherit; text-decoration: underline; text-decoration-thickness: 1px; text-underline-offset: 2px; }
.markdown-body code { font-family: ui-monospace, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
.markdown-body pre { padding-left: 1em; border-left: 2px solid #ddd; }
.markdown-body blockquote { padding-left: 1em; color: #555; border-left: 2px solid #ddd; margin-left: 0; }
.markdown-body th, .markdown-body td { padding: 0.3em 0.8em 0.3em 0; border-bottom: 1px solid #e5e5e5; text-align: left; }
.markdown-body th { font-weight: 600; }
.markdown-body hr { border: 0; border-top: 1px solid #e5e5e5; margin: 2em 0; }
`
