import { describe, expect, it } from 'vitest'
import { contentDisposition } from './content-disposition.ts'

describe('contentDisposition', () => {
  it('gives plain names as filename and filename*', () => {
    expect(contentDisposition('inline', 'invoice-42.pdf')).toBe(
      `inline; filename="invoice-42.pdf"; filename*=UTF-8''invoice-42.pdf`,
    )
  })

  it('keeps the exact UTF-8 name in filename* and an ASCII stand-in in filename (RFC 6266)', () => {
    expect(contentDisposition('attachment', 'Rechnung März (1).pdf')).toBe(
      `attachment; filename="Rechnung M_rz (1).pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz%20%281%29.pdf`,
    )
    expect(contentDisposition('attachment', '日本.pdf')).toBe(
      `attachment; filename="__.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pdf`,
    )
  })

  it('never lets quotes, backslashes, line breaks or folders into the header', () => {
    const value = contentDisposition('inline', 'a"b\\c\r\nSet-Cookie: x=1/../d.pdf')
    expect(value).not.toMatch(/[\r\n]/)
    expect(value).toBe(
      `inline; filename="a_b_cSet-Cookie: x=1_.._d.pdf"; filename*=UTF-8''a%22b_cSet-Cookie%3A%20x%3D1_.._d.pdf`,
    )
  })

  it('leaves the name out when nothing usable is left', () => {
    expect(contentDisposition('attachment', '\r\n')).toBe('attachment')
  })
})
