import { describe, expect, it } from 'vitest'
import { halfHoursOn, HALF_HOURS, timeLabel } from './schedule'

describe('the wizard schedule helpers', () => {
  it('offers 48 half hours, minus the two that do not exist when clocks spring forward', () => {
    expect(HALF_HOURS).toHaveLength(48)
    expect(HALF_HOURS[0]).toBe('00:00')
    expect(HALF_HOURS[47]).toBe('23:30')
    expect(halfHoursOn('2026-03-08')).not.toContain('02:00')
    expect(halfHoursOn('2026-03-08')).not.toContain('02:30')
    expect(halfHoursOn('2026-03-08')).toHaveLength(46)
    // Falling back repeats 01:00-01:59, which stays one choice each.
    expect(halfHoursOn('2026-11-01')).toHaveLength(48)
  })

  it('offers every half hour of a day it cannot read', () => {
    expect(halfHoursOn('')).toHaveLength(48)
  })

  it('labels a time of day in US English', () => {
    expect(timeLabel('14:30')).toBe('2:30 PM')
    expect(timeLabel('00:00')).toBe('12:00 AM')
  })
})
