import QRCode from 'qrcode'
import { describe, expect, it } from 'vitest'
import { pixels, render, WHITE } from './canvas-test-support.ts'

const BLACK = { r: 0, g: 0, b: 0, a: 255 }
const BACKDROP = { r: 0, g: 128, b: 0, a: 255 }

function codeScene(layer: Record<string, unknown>) {
  return {
    width: 300,
    height: 200,
    background: '#008000',
    layers: [{ name: 'code', x: 50, y: 20, width: 200, height: 160, ...layer }],
  }
}

/** Dark and light pixels of a box. */
async function tones(bytes: Buffer, box: { x: number; y: number; width: number; height: number }) {
  const img = await pixels(bytes)
  let dark = 0
  let light = 0
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) {
      const p = img.at(x, y)
      if (p.r + p.g + p.b < 100) dark++
      else if (p.r + p.g + p.b > 700) light++
    }
  return { dark, light, img }
}

describe('qr layers', () => {
  it('draws a square code as large as the box allows, centred, with a light quiet zone', async () => {
    const { file } = await render(codeScene({ type: 'qr', value: 'https://example.com/p/42', margin: 2 }))
    // 160x160 square centred in the 200x160 box: x 70..230
    const { dark, light, img } = await tones(file.bytes, { x: 70, y: 20, width: 160, height: 160 })
    expect(dark).toBeGreaterThan(160 * 160 * 0.25)
    expect(light).toBeGreaterThan(160 * 160 * 0.25)
    expect(img.at(60, 100)).toEqual(BACKDROP) // beside the square
    expect(img.at(72, 22)).toEqual(WHITE) // quiet zone
    // top-left finder pattern: its dark outer ring begins after the 2-module margin
    const modulePx = 160 / (25 + 4)
    expect(img.at(Math.round(70 + modulePx * 2.5), Math.round(20 + modulePx * 2.5))).toEqual(BLACK)
  })

  it('draws exactly the module matrix of the value (read back from the pixels)', async () => {
    const value = 'https://example.com/p/42?ref=card'
    const { file } = await render(codeScene({ type: 'qr', value, margin: 2, error_level: 'Q' }))
    const { modules } = QRCode.create(value, { errorCorrectionLevel: 'Q' })
    const img = await pixels(file.bytes)
    const modulePx = 160 / (modules.size + 4)
    let wrong = 0
    for (let row = 0; row < modules.size; row++)
      for (let col = 0; col < modules.size; col++) {
        const p = img.at(Math.floor(70 + (col + 2.5) * modulePx), Math.floor(20 + (row + 2.5) * modulePx))
        const dark = p.r + p.g + p.b < 384
        if (dark !== Boolean(modules.get(row, col))) wrong++
      }
    expect(wrong).toBe(0)
  })

  it('grows with more data and a higher error level, in the asked colours', async () => {
    const small = await render(codeScene({ type: 'qr', value: 'a', error_level: 'L', margin: 0 }))
    const large = await render(
      codeScene({
        type: 'qr',
        value: 'https://example.com/'.repeat(5),
        error_level: 'H',
        margin: 0,
        color: '#0000ff',
      }),
    )
    // module count shows in how many colour changes one row has
    const changes = async (bytes: Buffer, dark: (p: { r: number; g: number; b: number }) => boolean) => {
      const img = await pixels(bytes)
      let count = 0
      for (let x = 71; x < 230; x++) if (dark(img.at(x, 100)) !== dark(img.at(x - 1, 100))) count++
      return count
    }
    const isBlack = (p: { r: number; g: number; b: number }) => p.r + p.g + p.b < 100
    const isBlue = (p: { r: number; g: number; b: number }) => p.b > 200 && p.r < 60
    expect(await changes(large.file.bytes, isBlue)).toBeGreaterThan(await changes(small.file.bytes, isBlack))
  })

  it('draws nothing for an empty value', async () => {
    const { file } = await render(codeScene({ type: 'qr', value: '' }))
    expect((await pixels(file.bytes)).inkIn({ x: 0, y: 0, width: 300, height: 200 }, BACKDROP)).toBe(0)
  })
})

describe('barcode layers', () => {
  it('draws EAN-13 bars with the digits under them, in the asked colour on the asked background', async () => {
    const { file } = await render(
      codeScene({
        type: 'barcode',
        symbology: 'ean13',
        value: '5901234123457',
        color: '#000000',
        background: '#ffffff',
      }),
    )
    const { dark, light, img } = await tones(file.bytes, { x: 50, y: 20, width: 200, height: 160 })
    expect(dark).toBeGreaterThan(2000)
    expect(light).toBeGreaterThan(2000)
    // many bar edges across the middle
    let edges = 0
    for (let x = 51; x < 250; x++) if (img.at(x, 60).r < 128 !== img.at(x - 1, 60).r < 128) edges++
    expect(edges).toBeGreaterThan(40)
  })

  it('draws Code 128, Data Matrix and PDF417', async () => {
    for (const [symbology, value] of [
      ['code128', 'SKU-12345'],
      ['datamatrix', 'https://example.com'],
      ['pdf417', 'shipping label 42'],
    ]) {
      const { file } = await render(codeScene({ type: 'barcode', symbology, value, background: '#ffffff' }))
      const { dark, light } = await tones(file.bytes, { x: 50, y: 20, width: 200, height: 160 })
      expect(dark, symbology).toBeGreaterThan(500)
      expect(light, symbology).toBeGreaterThan(500)
    }
  })

  it('uses the bar colour', async () => {
    const { file } = await render(
      codeScene({ type: 'barcode', symbology: 'code128', value: 'ABC', color: '#ff0000' }),
    )
    const img = await pixels(file.bytes)
    let red = 0
    for (let x = 50; x < 250; x++) if (img.at(x, 60).r > 200 && img.at(x, 60).g < 60) red++
    expect(red).toBeGreaterThan(20)
  })
})
