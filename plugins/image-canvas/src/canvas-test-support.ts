import type { GuardedFetch, RenderedFile, RenderWarning } from '@docsvc/core/sdk'
import sharp from 'sharp'
import { type RenderSceneOptions, renderScene } from './render-scene.ts'
import { MAX_CANVAS_SIDE, type Scene } from './scene-schema.ts'

// Test helpers: render a scene and read what a viewer would see (pixels, not markup).

export const noFetch: GuardedFetch = async (url) => {
  throw new Error(`unexpected fetch of ${url}`)
}

export async function render(
  scene: unknown,
  data: Record<string, unknown> = {},
  options: Partial<Omit<RenderSceneOptions, 'warn'>> = {},
): Promise<{ file: RenderedFile; warnings: RenderWarning[] }> {
  const warnings: RenderWarning[] = []
  const file = await renderScene(scene as Scene, data, {
    format: 'png',
    fetch: noFetch,
    // SPEC 8's side cap alone; the budget's own tests set theirs
    maxPixels: MAX_CANVAS_SIDE ** 2,
    signal: new AbortController().signal,
    ...options,
    warn: (code, message) => warnings.push({ code, message }),
  })
  return { file, warnings }
}

export interface Rgba {
  r: number
  g: number
  b: number
  a: number
}

export async function pixels(bytes: Buffer) {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (x: number, y: number): Rgba => {
    const i = (y * info.width + x) * 4
    return { r: data[i]!, g: data[i + 1]!, b: data[i + 2]!, a: data[i + 3]! }
  }
  /** pixels of a box that differ from `background` by more than a little (anti-aliasing aside) */
  const inkIn = (box: { x: number; y: number; width: number; height: number }, background: Rgba) => {
    let count = 0
    for (let y = box.y; y < box.y + box.height; y++)
      for (let x = box.x; x < box.x + box.width; x++) if (distance(at(x, y), background) > 60) count++
    return count
  }
  /** the smallest rectangle holding all ink of a box, or undefined when it has none */
  const inkBounds = (box: { x: number; y: number; width: number; height: number }, background: Rgba) => {
    let bounds: { minX: number; maxX: number; minY: number; maxY: number } | undefined
    for (let y = box.y; y < box.y + box.height; y++)
      for (let x = box.x; x < box.x + box.width; x++) {
        if (distance(at(x, y), background) <= 60) continue
        bounds = bounds
          ? {
              minX: Math.min(bounds.minX, x),
              maxX: Math.max(bounds.maxX, x),
              minY: Math.min(bounds.minY, y),
              maxY: Math.max(bounds.maxY, y),
            }
          : { minX: x, maxX: x, minY: y, maxY: y }
      }
    return bounds
  }
  return { at, inkIn, inkBounds, width: info.width, height: info.height }
}

export function distance(a: Rgba, b: Rgba): number {
  return Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b) + Math.abs(a.a - b.a)
}

export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 255 }
export const RED: Rgba = { r: 255, g: 0, b: 0, a: 255 }

/** A solid PNG as a data: URI. */
export async function solidPng(width: number, height: number, color: string): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer()
  return `data:image/png;base64,${png.toString('base64')}`
}

export function codes(warnings: RenderWarning[]): string[] {
  return warnings.map((w) => w.code)
}

/** Runs fn and returns the ProblemError-like error it throws. */
export async function rejection(fn: () => Promise<unknown>): Promise<{
  code: string
  message: string
  extras: { errors?: { path: string; code: string; message: string }[] }
}> {
  try {
    await fn()
  } catch (err) {
    return err as never
  }
  throw new Error('expected a rejection')
}
