/** `default`: a clean sans-serif document with quiet rules and a blue accent. */
export const DEFAULT_THEME = `
.markdown-body {
  font-family: Inter, "Helvetica Neue", Helvetica, Arial, "Liberation Sans", "Noto Sans", "DejaVu Sans", sans-serif;
  font-size: 11pt; line-height: 1.55; color: #1f2933;
}
.markdown-body h1, .markdown-body h2, .markdown-body h3,
.markdown-body h4, .markdown-body h5, .markdown-body h6 { line-height: 1.25; font-weight: 650; color: #111827; }
.markdown-body h1 { font-size: 2em; margin: 0 0 0.7em; letter-spacing: -0.01em; }
.markdown-body h2 { font-size: 1.45em; margin: 1.6em 0 0.6em; padding-bottom: 0.25em; border-bottom: 1px solid #e5e7eb; }
.markdown-body h3 { font-size: 1.2em; margin: 1.4em 0 0.5em; }
.markdown-body h4 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
.markdown-body h5, .markdown-body h6 { font-size: 1em; margin: 1em 0 0.4em; color: #4b5563; }
.markdown-body p, .markdown-body ul, .markdown-body ol, .markdown-body dl,
.markdown-body table, .markdown-body pre, .markdown-body blockquote { margin: 0 0 1em; }
.markdown-body ul, .markdown-body ol { padding-left: 1.6em; }
.markdown-body li + li { margin-top: 0.25em; }
.markdown-body a { color: #1d5fbf; text-decoration: none; }
.markdown-body strong { font-weight: 650; }
.markdown-body code {
  font-family: "JetBrains Mono", "SFMono-Regular", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
  font-size: 0.88em; background: #f3f4f6; padding: 0.1em 0.35em; border-radius: 4px;
}
.markdown-body pre { background: #f6f8fa; border: 1px solid #eaecef; border-radius: 6px; padding: 0.8em 1em; font-size: 0.85em; line-height: 1.45; }
.markdown-body pre code { background: none; padding: 0; font-size: inherit; border-radius: 0; }
.markdown-body blockquote { padding: 0.1em 1em; color: #4b5563; border-left: 3px solid #c7d2fe; background: #f8fafc; }
.markdown-body table { width: 100%; font-size: 0.95em; }
.markdown-body th, .markdown-body td { padding: 0.45em 0.75em; border-bottom: 1px solid #e5e7eb; text-align: left; vertical-align: top; }
.markdown-body th { font-weight: 650; border-bottom: 2px solid #cbd5e1; background: #f8fafc; }
.markdown-body hr { border: 0; border-top: 1px solid #e5e7eb; margin: 2em 0; }
.markdown-body img { border-radius: 4px; }
`
