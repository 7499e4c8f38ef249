import { describe, expect, it } from 'vitest'
import { type GroupState, planFairClaims, UNGROUPED } from './fair-claim.ts'

const group = (key: string, state: Partial<GroupState> = {}): GroupState => ({
  key,
  limit: null,
  running: 0,
  waiting: 1,
  headRank: 0,
  headArrival: 0,
  lastServed: 0,
  ...state,
})

const order = (groups: GroupState[], slots: number) => {
  const plan = planFairClaims(groups, slots)
  return Object.fromEntries(plan.take)
}

describe('planFairClaims', () => {
  it('gives a group never served the slot before one served just now, however old its backlog', () => {
    const plan = planFairClaims(
      [group('a', { waiting: 10_000, headArrival: 1, lastServed: 7 }), group('b', { headArrival: 9 })],
      1,
    )
    expect(Object.fromEntries(plan.take)).toEqual({ b: 1 })
    expect(plan.lastServed.get('b')).toBe(8)
  })

  it('takes turns slot by slot, and skips a group at its limit', () => {
    expect(
      order(
        [
          group('a', { waiting: 10, limit: 2, running: 1 }),
          group('b', { waiting: 10, limit: 3 }),
          group(UNGROUPED, { waiting: 1 }),
        ],
        6,
      ),
    ).toEqual({ a: 1, b: 3, [UNGROUPED]: 1 })
  })

  it('puts normal priority before low across groups, then the fewest running', () => {
    expect(order([group('low', { headRank: 1 }), group('busy', { running: 3 }), group('idle')], 1)).toEqual({
      idle: 1,
    })
    expect(order([group('low', { headRank: 1 }), group('busy', { running: 3 })], 1)).toEqual({ busy: 1 })
  })

  it('numbers a serve after every serve stored, so a group that went idle comes back first', () => {
    const plan = planFairClaims([group('busy', { lastServed: 500, waiting: 10 })], 1, 600)
    expect(plan.lastServed.get('busy')).toBe(601)
    expect(
      order([group('busy', { lastServed: 601, waiting: 10 }), group('back', { lastServed: 600 })], 1),
    ).toEqual({
      back: 1,
    })
  })

  it('takes nothing when every group is at its limit or empty', () => {
    expect(order([group('a', { limit: 1, running: 1 }), group('b', { waiting: 0 })], 4)).toEqual({})
  })
})
