import { describe, expect, it } from 'vitest'
import { prettyDate, prettyTime } from './podclubs.format'

describe('pretty date and time, in New York', () => {
  it.each([
    ['2026-12-18T00:30:00Z', 'Thursday, December 17, 2026', '7:30 PM EST'],
    ['2026-07-04T18:00:00Z', 'Saturday, July 4, 2026', '2:00 PM EDT'],
    // The night daylight saving ends: 01:30 happens twice; the second is EST.
    ['2026-11-01T05:30:00Z', 'Sunday, November 1, 2026', '1:30 AM EDT'],
    ['2026-11-01T06:30:00Z', 'Sunday, November 1, 2026', '1:30 AM EST'],
  ])('%s is %s at %s', (iso, date, time) => {
    expect(prettyDate(new Date(iso))).toBe(date)
    expect(prettyTime(new Date(iso))).toBe(time)
  })
})
