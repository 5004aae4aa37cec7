import { describe, expect, it } from 'vitest'
import { parseEnv } from '../../lib/env'
import { parseIcs } from '../../testing/ics'
import { buildCalendar, type CalendarPodclub } from './calendar.ics'

const env = {
  // As the settings give it: the trailing slash already gone.
  APP_URL: parseEnv({ APP_URL: 'https://club.example/' }).APP_URL,
  MAIL_FROM: 'podclub <hello@club.example>',
  NYC_OFFICE_ADDRESS: '1 Example Plaza, New York, NY',
}
const now = new Date('2027-01-01T12:00:00Z')

function podclub(overrides: Partial<CalendarPodclub> = {}): CalendarPodclub {
  return {
    id: 12,
    episodeTitle: 'The Invention of Boredom',
    podcastName: 'Hidden Brain',
    startsAt: new Date('2027-02-01T19:00:00Z'),
    durationMinutes: 60,
    location: 'zoom',
    description: 'Why an empty afternoon feels unbearable now.',
    sequence: 0,
    status: 'upcoming',
    ...overrides,
  }
}

describe('buildCalendar', () => {
  it('writes one VEVENT with a stable UID, a UTC start, an hour long, summary, place and URL', () => {
    const ics = buildCalendar([podclub()], { method: 'publish', env, now })
    const parsed = parseIcs(ics)
    expect(parsed.method).toBe('PUBLISH')
    expect(parsed.events).toHaveLength(1)
    const [event] = parsed.events
    expect(event!.uid).toBe('podclub-12@club.example')
    expect(event!.startIsUtc).toBe(true)
    expect(ics).toMatch(/^DTSTART:20270201T190000Z\r?$/m)
    expect(event!.end.getTime() - event!.start.getTime()).toBe(3_600_000)
    expect(event!.summary).toBe('podclub: The Invention of Boredom (Hidden Brain)')
    expect(event!.location).toBe('Zoom')
    expect(event!.url).toBe('https://club.example/podclubs/12')
    expect(event!.description).toContain('Why an empty afternoon feels unbearable now.')
    // The UID doesn't depend on anything that changes.
    const later = buildCalendar([podclub({ startsAt: new Date('2027-03-01T19:00:00Z') })], {
      method: 'request',
      env,
      now: new Date('2027-01-05T00:00:00Z'),
    })
    expect(parseIcs(later).events[0]!.uid).toBe(event!.uid)
  })

  it("puts nyc podclubs at the office and keeps the podclub's own length", () => {
    const [event] = parseIcs(
      buildCalendar([podclub({ location: 'nyc', durationMinutes: 90 })], {
        method: 'publish',
        env,
        now,
      }),
    ).events
    expect(event!.location).toBe('1 Example Plaza, New York, NY')
    expect(event!.end.getTime() - event!.start.getTime()).toBe(90 * 60_000)
  })

  it('writes the instant in UTC on both sides of a daylight-saving change in New York', () => {
    // 2 PM in New York: EST (UTC-5) on March 13, 2027; EDT (UTC-4) from March 14.
    const before = new Date('2027-03-13T19:00:00Z')
    const after = new Date('2027-03-14T18:00:00Z')
    const ics = buildCalendar(
      [podclub({ id: 1, startsAt: before }), podclub({ id: 2, startsAt: after })],
      { method: 'publish', env, now },
    )
    expect(ics).toMatch(/^DTSTART:20270313T190000Z\r?$/m)
    expect(ics).toMatch(/^DTSTART:20270314T180000Z\r?$/m)
    const starts = parseIcs(ics).events.map((e) => e.start.toISOString())
    expect(starts).toEqual([before.toISOString(), after.toISOString()])
  })

  it('asks the member to add it (REQUEST) and takes it out with METHOD:CANCEL, same UID', () => {
    const attendee = { name: 'maya.r', email: 'maya@example.com' }
    const request = buildCalendar([podclub({ sequence: 2 })], {
      method: 'request',
      env,
      now,
      attendee,
    })
    const cancel = buildCalendar([podclub({ sequence: 2 })], {
      method: 'cancel',
      env,
      now,
      attendee,
    })
    expect(parseIcs(request).method).toBe('REQUEST')
    const [invite] = parseIcs(request).events
    expect(invite!.organizer.toLowerCase()).toBe('mailto:hello@club.example')
    expect(invite!.attendees.map((a) => a.toLowerCase())).toEqual(['mailto:maya@example.com'])
    const parsedCancel = parseIcs(cancel)
    expect(parsedCancel.method).toBe('CANCEL')
    expect(parsedCancel.events[0]!.status).toBe('CANCELLED')
    expect(parsedCancel.events[0]!.uid).toBe(parseIcs(request).events[0]!.uid)
    expect(parsedCancel.events[0]!.sequence).toBe(2)
  })
})
