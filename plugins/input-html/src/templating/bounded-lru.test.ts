import { describe, expect, it } from 'vitest'
import { BoundedLru } from './bounded-lru.ts'

describe('BoundedLru', () => {
  it('evicts the least recently used entry past its entry count', () => {
    const lru = new BoundedLru<string, number>(2)
    lru.set('a', 1)
    lru.set('b', 2)
    expect(lru.get('a')).toBe(1)
    lru.set('c', 3)
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3])
  })

  it('evicts by total weight, and keeps nothing heavier than the bound', () => {
    const lru = new BoundedLru<string, string>(10, 10)
    lru.set('a', 'aaaa', 4)
    lru.set('b', 'bbbb', 4)
    lru.set('c', 'cccc', 4)
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([undefined, 'bbbb', 'cccc'])
    lru.set('huge', 'x'.repeat(11), 11)
    expect(lru.get('huge')).toBeUndefined()
    expect(lru.get('c')).toBe('cccc')
  })

  it('replaces an entry under the same key without counting it twice', () => {
    const lru = new BoundedLru<string, number>(10, 10)
    lru.set('a', 1, 6)
    lru.set('a', 2, 6)
    lru.set('b', 3, 4)
    expect([lru.get('a'), lru.get('b')]).toEqual([2, 3])
  })
})
