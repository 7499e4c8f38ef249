// node bench/src/canvas-bench.ts: a 1200x630 social card (background, photo, title, subtitle,
// badge, QR) rendered to PNG by the image canvas (scene -> SVG -> resvg -> sharp), next to a
// Chromium screenshot of the same card on a warm page, in the same run. Figures, not a test.
import { cpus, loadavg } from 'node:os'
import { MAX_CANVAS_SIDE, renderScene, type Scene } from '@docsvc/image-canvas'
import { chromium } from 'playwright-core'
import QRCode from 'qrcode'
import sharp from 'sharp'
import { CLOSED_NETWORK_ARGS } from '../../plugins/chromium/src/browser-instance.ts'
import { measure, type RunStats } from './stats.ts'

const CANVAS_RENDERS = Number(process.env.BENCH_RENDERS ?? 300)
const CHROMIUM_RENDERS = Number(process.env.BENCH_CHROMIUM_RENDERS ?? 60)
const COLD_RENDERS = 30
const WARMUP = 10
const CHROMIUM = process.env.DOCSVC_CHROMIUM_PATH ?? '/usr/bin/chromium'
const QR_VALUE = 'https://example.com/blog/rendering-cards'

/** A photo-like JPEG (smooth gradient plus grain), different for each seed. */
async function photo(seed: number): Promise<string> {
  const width = 1600
  const height = 1000
  const pixels = Buffer.alloc(width * height * 3)
  let noise = seed * 7919 + 1
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      noise = (noise * 1103515245 + 12345) & 0x7fffffff
      const grain = (noise % 17) - 8
      const i = (y * width + x) * 3
      pixels[i] = Math.max(0, Math.min(255, 40 + (x * 160) / width + grain))
      pixels[i + 1] = Math.max(0, Math.min(255, 90 + (y * 120) / height + grain + seed))
      pixels[i + 2] = Math.max(0, Math.min(255, 200 - (x * 80) / width + grain))
    }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer()
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`
}

function cardScene(photoUri: string): Scene {
  return {
    width: 1200,
    height: 630,
    layers: [
      { type: 'rectangle', name: 'background', x: 0, y: 0, width: 1200, height: 630, fill: '#0f172a' },
      { type: 'image', name: 'photo', x: 760, y: 0, width: 440, height: 630, src: photoUri, fit: 'cover' },
      {
        type: 'text',
        name: 'title',
        x: 60,
        y: 110,
        width: 640,
        height: 260,
        font_family: 'DejaVu Sans',
        font_size: 60,
        font_weight: 700,
        color: '#ffffff',
        line_height: 1.15,
        overflow: 'shrink',
        min_font_size: 28,
      },
      {
        type: 'text',
        name: 'subtitle',
        x: 60,
        y: 400,
        width: 640,
        height: 80,
        font_family: 'DejaVu Sans',
        font_size: 28,
        color: '#cbd5e1',
        max_lines: 2,
      },
      { type: 'rectangle', name: 'badge', x: 60, y: 40, width: 180, height: 44, radius: 22, fill: '#ef4444' },
      { type: 'qr', name: 'qr', x: 1020, y: 450, width: 150, height: 150, value: QR_VALUE, margin: 2 },
    ],
  } as Scene
}

function cardData(i: number) {
  return {
    'title.text': `Rendering social cards without a browser, take ${i}`,
    subtitle: { text: 'docsvc image canvas: scene to SVG to pixels, no page load' },
  }
}

/** The same card as HTML for Chromium: the same boxes, fonts, colours and QR modules. */
function cardHtml(photoUri: string, qrSvg: string, i: number): string {
  const data = cardData(i)
  return `<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;width:1200px;height:630px;overflow:hidden}
body{position:relative;background:#0f172a;font-family:'DejaVu Sans'}
.photo{position:absolute;left:760px;top:0;width:440px;height:630px;object-fit:cover}
.title{position:absolute;left:60px;top:110px;width:640px;height:260px;color:#fff;font-size:60px;font-weight:700;line-height:1.15;overflow:hidden}
.subtitle{position:absolute;left:60px;top:400px;width:640px;height:80px;color:#cbd5e1;font-size:28px;line-height:1.2;overflow:hidden}
.badge{position:absolute;left:60px;top:40px;width:180px;height:44px;border-radius:22px;background:#ef4444}
.qr{position:absolute;left:1020px;top:450px;width:150px;height:150px}
.qr svg{width:100%;height:100%}
</style></head><body>
<img class="photo" src="${photoUri}">
<div class="title">${data['title.text']}</div>
<div class="subtitle">${data.subtitle.text}</div>
<div class="badge"></div>
<div class="qr">${qrSvg}</div>
</body></html>`
}

/** Size of the last PNG each side made: the two encoders compress differently. */
const lastBytes = { canvas: 0, chromium: 0 }

const noFetch = async () => {
  throw new Error('the card has no remote images')
}

interface CanvasStats extends RunStats {
  /** CPU of this process (all threads) per render: less bent by other load than wall time */
  cpuMs: number
}

async function canvasRun(
  photoFor: (i: number) => string,
  total: number,
  concurrency: number,
): Promise<CanvasStats> {
  let i = 0
  const cpu = process.cpuUsage()
  const stats = await measure(total, concurrency, async () => {
    const n = i++
    const file = await renderScene(cardScene(photoFor(n)), cardData(n), {
      format: 'png',
      fetch: noFetch,
      maxPixels: MAX_CANVAS_SIDE ** 2,
      signal: new AbortController().signal,
      warn: () => {},
    })
    lastBytes.canvas = file.bytes.length
  })
  const used = process.cpuUsage(cpu)
  return { ...stats, cpuMs: (used.user + used.system) / 1000 / stats.count }
}

function row(label: string, s: RunStats & { cpuMs?: number }): string {
  const cpu = s.cpuMs === undefined ? 'in the browser' : s.cpuMs.toFixed(1)
  return `| ${label} | ${s.count} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.perSecond.toFixed(1)} | ${cpu} |`
}

async function main() {
  const photos = await Promise.all(Array.from({ length: COLD_RENDERS + 1 }, (_, i) => photo(i)))
  const warmPhoto = photos[0] as string
  const qrSvg = await QRCode.toString(QR_VALUE, { type: 'svg', margin: 2 })
  const rows: string[] = []

  // canvas: the template's photo stays the same render after render (its fitted copy is cached)
  await canvasRun(() => warmPhoto, WARMUP, 1)
  const canvas1 = await canvasRun(() => warmPhoto, CANVAS_RENDERS, 1)
  const canvas2 = await canvasRun(() => warmPhoto, CANVAS_RENDERS, 2)
  // canvas, a new photo every render (e.g. photo.src from data): the fitting is paid each time
  const cold = await canvasRun((i) => photos[i + 1] as string, COLD_RENDERS, 1)
  rows.push(row('canvas PNG, same photo, c=1', canvas1))
  rows.push(row('canvas PNG, same photo, c=2', canvas2))
  rows.push(row('canvas PNG, new photo each render, c=1', cold))

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', ...CLOSED_NETWORK_ARGS],
  })
  try {
    const pages = await Promise.all(
      [0, 1].map(async () => {
        const context = await browser.newContext({ viewport: { width: 1200, height: 630 } })
        return context.newPage()
      }),
    )
    let n = 0
    const shot = async (worker: number) => {
      const page = pages[worker]!
      await page.setContent(cardHtml(warmPhoto, qrSvg, n++), { waitUntil: 'load' })
      lastBytes.chromium = (await page.screenshot({ type: 'png' })).length
    }
    await measure(WARMUP, 1, shot)
    rows.push(row('Chromium screenshot, warm page, c=1', await measure(CHROMIUM_RENDERS, 1, shot)))
    rows.push(row('Chromium screenshot, warm pages, c=2', await measure(CHROMIUM_RENDERS, 2, shot)))
  } finally {
    await browser.close()
  }

  const [load1] = loadavg()
  console.log(
    `Canvas benchmark ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? '?'})`,
  )
  console.log(
    `load average at the end ${load1?.toFixed(2)}; RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB`,
  )
  console.log('')
  console.log('| 1200x630 card, 6 layers | renders | p50 ms | p95 ms | renders/s | CPU ms/render |')
  console.log('|---|---|---|---|---|---|')
  for (const line of rows) console.log(line)
  console.log('')
  console.log(
    `PNG size: canvas ${Math.round(lastBytes.canvas / 1024)} KB, Chromium ${Math.round(lastBytes.chromium / 1024)} KB`,
  )
}

await main()
