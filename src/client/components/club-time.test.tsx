import { describe, expect, it } from 'vitest'
import { localTimeOf } from './club-time'

describe('localTimeOf', () => {
  it('gives the viewer’s wall time when it differs from New York’s', () => {
    // 19:30 EST on December 17 is 01:30 the next day in Berlin.
    expect(localTimeOf(new Date('2026-12-18T00:30:00Z'), 'Europe/Berlin')).toBe(
      'Fri, Dec 18, 1:30 AM GMT+1',
    )
    // Between the US and European clock changes the gap is 5 hours, not 6.
    expect(localTimeOf(new Date('2026-03-10T18:00:00Z'), 'Europe/Berlin')).toBe(
      'Tue, Mar 10, 7:00 PM GMT+1',
    )
    expect(localTimeOf(new Date('2026-03-10T18:00:00Z'), 'America/Los_Angeles')).toBe(
      'Tue, Mar 10, 11:00 AM PDT',
    )
  })

  it('gives nothing where the time reads the same as in New York', () => {
    expect(localTimeOf(new Date('2026-12-18T00:30:00Z'), 'America/New_York')).toBeNull()
    expect(localTimeOf(new Date('2026-12-18T00:30:00Z'), 'America/Toronto')).toBeNull()
  })
})
