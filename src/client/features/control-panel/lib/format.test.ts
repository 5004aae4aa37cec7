import { describe, expect, it } from 'vitest'
import { formatActivityDate } from './format'

describe('control panel formats', () => {
  it('writes an activity date as a US medium date with a short time', () => {
    const local = new Date(2026, 10, 23, 19, 5)
    expect(formatActivityDate(local.toISOString())).toBe('Nov 23, 2026, 7:05 PM')
  })

  it('keeps a date it cannot read as it came', () => {
    expect(formatActivityDate('soon')).toBe('soon')
  })
})
