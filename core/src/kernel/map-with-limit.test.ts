import { describe, expect, it } from 'vitest'
import { mapWithLimit } from './map-with-limit.ts'

const tick = () => new Promise((r) => setTimeout(r, 1))

describe('mapWithLimit', () => {
  it('keeps the input order and never runs more than the limit at once', async () => {
    let running = 0
    let most = 0
    const out = await mapWithLimit([5, 1, 4, 2, 3, 0, 6], 3, async (n, i) => {
      running++
      most = Math.max(most, running)
      await new Promise((r) => setTimeout(r, n))
      running--
      return `${i}:${n}`
    })
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6'])
    expect(most).toBe(3)
  })

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = []
    const run = mapWithLimit([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n)
      await tick()
      if (n === 1) throw new Error('one failed')
      return n
    })
    await expect(run).rejects.toThrow('one failed')
    expect(started).toEqual([0, 1, 2])
  })

  it('rejects only once the calls already running have ended', async () => {
    const ended: number[] = []
    const run = mapWithLimit([0, 1], 2, async (n) => {
      if (n === 0) throw new Error('zero failed')
      await new Promise((r) => setTimeout(r, 30))
      ended.push(n)
    })
    await expect(run).rejects.toThrow('zero failed')
    expect(ended).toEqual([1])
  })

  it('answers an empty list at once', async () => {
    expect(await mapWithLimit([], 4, async () => 1)).toEqual([])
  })
})
