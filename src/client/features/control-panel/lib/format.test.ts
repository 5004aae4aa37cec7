import { describe, expect, it } from 'vitest'
import { formatActivityDate, toClubDateTime } from './format'

describe('control panel formats', () => {
  it('writes an activity date as a US medium date with a short time', () => {
    const local = new Date(2026, 10, 23, 19, 5)
    expect(formatActivityDate(local.toISOString())).toBe('Nov 23, 2026, 7:05 PM')
  })

  it('keeps a date it cannot read as it came', () => {
    expect(formatActivityDate('soon')).toBe('soon')
  })

  it("turns a datetime-local value into the API's MM/DD/YYYY HH:mm", () => {
    expect(toClubDateTime('2026-12-01T19:30')).toBe('12/01/2026 19:30')
    expect(toClubDateTime('')).toBeUndefined()
  })
})
