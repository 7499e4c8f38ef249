/** `academic`: a paper: serif, justified, numbered section headings, booktabs-style tables. */
export const ACADEMIC_THEME = `
.markdown-body {
  font-family: "Latin Modern Roman", "CMU Serif", "STIX Two Text", "Libertinus Serif", "TeX Gyre Termes",
    "Times New Roman", "Liberation Serif", "Noto Serif", "DejaVu Serif", Georgia, serif;
  font-size: 11pt; line-height: 1.45; color: #111; text-align: justify; hyphens: auto;
  counter-reset: h2;
}
.markdown-body h1, .markdown-body h2, .markdown-body h3,
.markdown-body h4, .markdown-body h5, .markdown-body h6 { text-align: left; font-weight: 700; line-height: 1.25; hyphens: manual; }
.markdown-body h1 { font-size: 1.75em; font-weight: 400; text-align: center; margin: 0 0 1.2em; }
.markdown-body h2 { font-size: 1.3em; margin: 1.6em 0 0.6em; counter-reset: h3; counter-increment: h2; }
.markdown-body h3 { font-size: 1.12em; margin: 1.3em 0 0.5em; counter-reset: h4; counter-increment: h3; }
.markdown-body h4 { font-size: 1em; margin: 1.1em 0 0.4em; counter-increment: h4; }
.markdown-body h5, .markdown-body h6 { font-size: 1em; font-style: italic; font-weight: 400; margin: 1em 0 0.3em; }
.markdown-body h2::before { content: counter(h2) "\\2003"; }
.markdown-body h3::before { content: counter(h2) "." counter(h3) "\\2003"; }
.markdown-body h4::before { content: counter(h2) "." counter(h3) "." counter(h4) "\\2003"; }
.markdown-body p { margin: 0; }
.markdown-body p + p { text-indent: 1.5em; }
.markdown-body ul, .markdown-body ol, .markdown-body dl, .markdown-body pre,
.markdown-body blockquote, .markdown-body table { margin: 0.8em 0; }
.markdown-body ul, .markdown-body ol { padding-left: 1.8em; }
.markdown-body a { color: #1a3d7c; text-decoration: none; }
.markdown-body code {
  font-family: "Latin Modern Mono", "CMU Typewriter Text", "Liberation Mono", "DejaVu Sans Mono", monospace; font-size: 0.92em;
}
.markdown-body pre { font-size: 0.85em; line-height: 1.35; padding: 0.6em 0.9em; border-left: 2px solid #bbb; text-align: left; }
.markdown-body blockquote { margin-left: 2em; margin-right: 2em; font-size: 0.95em; }
.markdown-body table { margin-left: auto; margin-right: auto; font-size: 0.95em; border-top: 1.5px solid #111; border-bottom: 1.5px solid #111; }
.markdown-body th, .markdown-body td { padding: 0.3em 0.8em; text-align: left; }
.markdown-body thead th { border-bottom: 1px solid #111; }
.markdown-body img { display: block; margin: 1em auto; }
.markdown-body hr { border: 0; text-align: center; margin: 1.5em 0; }
.markdown-body hr::after { content: "\\2042"; }
`
