import { describe, expect, it } from 'vitest'
import { clubDateTimeSchema } from './club-time-schema'
import {
  addClubCalendar,
  atClubTimeOfDay,
  CLUB_TIME_MESSAGES,
  clubDateTimeOf,
  clubDateTimeOfInput,
  clubDateTimeParts,
  clubDay,
  clubMonthKey,
  clubMonthName,
  clubMonthStart,
  formatClubDateTime,
  isInFuture,
  longClubDate,
  mediumClubDateTime,
  parseClubDateTime,
  prettyDate,
  prettyTime,
  readClubDateTime,
  shortClubDate,
  startsWhen,
  viewerTimeOf,
} from './club-time'

const iso = (value: string) => parseClubDateTime(value)?.toISOString()

describe('reading a club time', () => {
  it('reads MM/DD/YYYY HH:mm as New York wall time on both sides of the clock changes', () => {
    expect(iso('03/07/2026 14:00')).toBe('2026-03-07T19:00:00.000Z')
    expect(iso('03/09/2026 14:00')).toBe('2026-03-09T18:00:00.000Z')
    expect(formatClubDateTime(new Date('2026-11-02T19:00:00Z'))).toBe('11/02/2026 14:00')
  })

  it('refuses a wall time the spring-forward skips instead of moving it an hour on', () => {
    expect(readClubDateTime('03/14/2027 02:30')).toEqual({ error: 'noSuchTime' })
    expect(readClubDateTime('03/14/2027 02:00')).toEqual({ error: 'noSuchTime' })
    expect(parseClubDateTime('03/14/2027 02:30')).toBeNull()
    expect(iso('03/14/2027 01:30')).toBe('2027-03-14T06:30:00.000Z')
    expect(iso('03/14/2027 03:00')).toBe('2027-03-14T07:00:00.000Z')
  })

  it('takes the first of a wall time the autumn repeats: EDT', () => {
    expect(iso('11/01/2026 01:30')).toBe('2026-11-01T05:30:00.000Z')
    expect(prettyTime(parseClubDateTime('11/01/2026 01:30')!)).toBe('1:30 AM EDT')
  })

  it.each(['', '13/01/2026 14:00', '02/30/2027 10:00', '01/15/2027 24:00', '1/15/2027 10:00'])(
    'calls %j invalid',
    (value) => {
      expect(readClubDateTime(value)).toEqual({ error: 'invalid' })
    },
  )

  it('reads ISO 8601 with an offset only when asked to', () => {
    expect(readClubDateTime('2027-01-15T19:30:00-05:00')).toEqual({ error: 'invalid' })
    expect(readClubDateTime('2027-01-15T19:30:00-05:00', { iso: true }).date?.toISOString()).toBe(
      '2027-01-16T00:30:00.000Z',
    )
    expect(readClubDateTime('2027-01-15T19:30:00', { iso: true })).toEqual({ error: 'invalid' })
    expect(readClubDateTime('01/15/2027 19:30', { iso: true }).date?.toISOString()).toBe(
      '2027-01-16T00:30:00.000Z',
    )
  })

  it('writes date inputs and datetime-local values as MM/DD/YYYY HH:mm, and back', () => {
    expect(clubDateTimeOf('2026-12-01', '19:30')).toBe('12/01/2026 19:30')
    expect(clubDateTimeOf('2026-12-01', '')).toBeNull()
    expect(clubDateTimeOf('', '19:30')).toBeNull()
    expect(clubDateTimeOfInput('2026-12-01T19:30')).toBe('12/01/2026 19:30')
    expect(clubDateTimeOfInput('2026-12-01T19:30:00')).toBe('12/01/2026 19:30')
    expect(clubDateTimeOfInput('')).toBeNull()
    expect(clubDateTimeParts('12/01/2026 19:30')).toEqual({ day: '2026-12-01', time: '19:30' })
    expect(clubDateTimeParts('03/14/2027 02:30')).toBeNull()
  })
})

describe('the club time schema', () => {
  const now = () => new Date('2027-01-01T12:00:00Z')
  const messages = (value: unknown, opts: Parameters<typeof clubDateTimeSchema>[0] = { now }) =>
    clubDateTimeSchema(opts)
      .safeParse(value)
      .error?.issues.map((i) => i.message) ?? []

  it('gives one message for each way a time can be wrong', () => {
    expect(messages('')).toEqual([CLUB_TIME_MESSAGES.required])
    expect(messages(undefined)).toEqual([CLUB_TIME_MESSAGES.required])
    expect(messages('next tuesday')).toEqual([CLUB_TIME_MESSAGES.invalid])
    expect(messages('03/14/2027 02:30')).toEqual([CLUB_TIME_MESSAGES.noSuchTime])
    expect(messages('01/01/2027 07:00')).toEqual([CLUB_TIME_MESSAGES.past])
    expect(messages('01/01/2027 07:30')).toEqual([])
    expect(messages('01/01/2027 07:00', {})).toEqual([])
  })

  it('says the zone in the words the rules use', () => {
    expect(CLUB_TIME_MESSAGES.invalid).toBe(
      'Enter the date and time as MM/DD/YYYY HH:mm, in Eastern Time (ET)',
    )
  })

  it('counts only what lies after now as the future', () => {
    const at = new Date('2027-01-01T12:00:00Z')
    expect(isInFuture(new Date(at.getTime() + 1), at)).toBe(true)
    expect(isInFuture(at, at)).toBe(false)
    expect(isInFuture(new Date(at.getTime() - 1), at)).toBe(false)
  })
})

describe('showing a club time', () => {
  it.each([
    ['2026-12-18T00:30:00Z', 'Thursday, December 17, 2026', '7:30 PM EST'],
    ['2026-07-04T18:00:00Z', 'Saturday, July 4, 2026', '2:00 PM EDT'],
    // The night daylight saving ends: 01:30 happens twice; the second is EST.
    ['2026-11-01T05:30:00Z', 'Sunday, November 1, 2026', '1:30 AM EDT'],
    ['2026-11-01T06:30:00Z', 'Sunday, November 1, 2026', '1:30 AM EST'],
  ])('%s is %s at %s', (at, date, time) => {
    expect(prettyDate(new Date(at))).toBe(date)
    expect(prettyTime(new Date(at))).toBe(time)
  })

  it('writes the medium, long and short forms in New York, with EST or EDT as the date has it', () => {
    const winter = new Date('2026-12-18T00:30:00Z')
    expect(mediumClubDateTime(winter)).toBe('Dec 17, 2026, 7:30 PM EST')
    expect(mediumClubDateTime(new Date('2027-06-15T18:00:00Z'))).toBe('Jun 15, 2027, 2:00 PM EDT')
    expect(longClubDate(winter)).toBe('December 17, 2026')
    expect(shortClubDate(winter)).toBe('Dec 17, 2026')
  })

  it('gives the viewer’s wall time when it differs from New York’s', () => {
    // 19:30 EST on December 17 is 01:30 the next day in Berlin.
    expect(viewerTimeOf(new Date('2026-12-18T00:30:00Z'), 'Europe/Berlin')).toBe(
      'Fri, Dec 18, 1:30 AM GMT+1',
    )
    // Between the US and European clock changes the gap is 5 hours, not 6.
    expect(viewerTimeOf(new Date('2026-03-10T18:00:00Z'), 'Europe/Berlin')).toBe(
      'Tue, Mar 10, 7:00 PM GMT+1',
    )
    expect(viewerTimeOf(new Date('2026-03-10T18:00:00Z'), 'America/Los_Angeles')).toBe(
      'Tue, Mar 10, 11:00 AM PDT',
    )
  })

  it('gives nothing where the time reads the same as in New York', () => {
    expect(viewerTimeOf(new Date('2026-12-18T00:30:00Z'), 'America/New_York')).toBeNull()
    expect(viewerTimeOf(new Date('2026-12-18T00:30:00Z'), 'America/Toronto')).toBeNull()
  })
})

describe("New York's calendar", () => {
  // 22:00 on November 30 in New York is already December 1 in UTC.
  const lateOnTheLastDay = new Date('2026-12-01T03:00:00Z')

  it('keys and starts months by New York, not UTC', () => {
    expect(clubMonthKey(lateOnTheLastDay)).toBe('2026-11')
    expect(clubMonthStart(lateOnTheLastDay).toISOString()).toBe('2026-11-01T04:00:00.000Z')
    expect(clubMonthName(lateOnTheLastDay)).toBe('November')
    expect(clubDay(lateOnTheLastDay)).toBe('2026-11-30')
  })

  it('moves along the calendar keeping the wall time, whatever the clocks do', () => {
    const march31 = parseClubDateTime('03/31/2026 14:00')!
    expect(formatClubDateTime(addClubCalendar(march31, { months: 1 }))).toBe('04/30/2026 14:00')
    const beforeSpring = parseClubDateTime('03/13/2027 19:00')!
    expect(formatClubDateTime(addClubCalendar(beforeSpring, { days: 1 }))).toBe('03/14/2027 19:00')
    expect(formatClubDateTime(atClubTimeOfDay(beforeSpring, 9, 30))).toBe('03/13/2027 09:30')
  })

  it('says when a podclub starts in minutes, then in New York calendar days', () => {
    const now = new Date('2026-12-01T16:00:00Z') // 11:00 in New York
    const later = (ms: number) => new Date(now.getTime() + ms)
    expect(startsWhen(later(0), now)).toBe('now')
    expect(startsWhen(later(60_000), now)).toBe('in 1 minute')
    expect(startsWhen(later(10 * 60_000), now)).toBe('in 10 minutes')
    expect(startsWhen(later(12 * 3_600_000), now)).toBe('today')
    // 22:00 the same evening in New York is the next day in UTC: still today.
    expect(startsWhen(new Date('2026-12-02T03:00:00Z'), now)).toBe('today')
    expect(startsWhen(new Date('2026-12-02T17:00:00Z'), now)).toBe('tomorrow')
    expect(startsWhen(new Date('2026-12-06T17:00:00Z'), now)).toBe('in 5 days')
    expect(startsWhen(new Date('2026-12-08T17:00:00Z'), now)).toBe('in one week')
  })
})
