// Shared by every theme except `none`: sane boxes and print behaviour. Page margins are left to
// the PDF options (an @page margin here would override `pdf.margin`).
export const BASE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; -webkit-text-size-adjust: 100%; }
body { margin: 0; }
.markdown-body { overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body blockquote > :last-child, .markdown-body li > :last-child { margin-bottom: 0; }
.markdown-body img, .markdown-body svg, .markdown-body video { max-width: 100%; height: auto; }
.markdown-body pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.markdown-body table { border-collapse: collapse; border-spacing: 0; }
.markdown-body thead { display: table-header-group; }
.markdown-body h1, .markdown-body h2, .markdown-body h3,
.markdown-body h4, .markdown-body h5, .markdown-body h6 { break-after: avoid; break-inside: avoid; }
.markdown-body tr, .markdown-body img, .markdown-body pre,
.markdown-body blockquote, .markdown-body li { break-inside: avoid; }
.markdown-body p { orphans: 3; widows: 3; }
@media screen {
  .markdown-body { max-width: 52rem; margin: 0 auto; padding: 2.5rem 2rem; }
}
`
