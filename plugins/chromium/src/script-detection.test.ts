import { describe, expect, it } from 'vitest'
import { mayRunScripts } from './script-detection.ts'

describe('mayRunScripts', () => {
  it('is false for plain markup and CSS', () => {
    expect(
      mayRunScripts('<h1>Invoice</h1><table><tr><td>1</td></tr></table><style>td { color: red }</style>'),
    ).toBe(false)
    expect(mayRunScripts('<p>Total = 5, one more line</p>')).toBe(false)
  })

  it('is true for anything that could run script or renders differently without it', () => {
    for (const html of [
      '<SCRIPT src="x.js"></SCRIPT>',
      '<img src=x onerror="alert(1)">',
      '<img/onload=alert(1)>',
      '<svg><a href="javascript:alert(1)">x</a></svg>',
      '<iframe src="https://example.com"></iframe>',
      '<object data="x.html"></object>',
      '<embed src="x.swf">',
      '<meta http-equiv="refresh" content="0;url=https://example.com">',
      '<noscript>Turn JavaScript on</noscript>',
      '<style>@media (scripting: none) { p { display: none } }</style>',
    ])
      expect(mayRunScripts(html), html).toBe(true)
  })
})
