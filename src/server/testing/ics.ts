import ICAL from 'ical.js'

/** A calendar file read back with an independent iCalendar parser, for tests. */
export function parseIcs(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent)
    return {
      uid: event.uid,
      summary: event.summary,
      location: event.location,
      description: event.description,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
      /** DTSTART as written: UTC when it ends in Z. */
      startIsUtc: event.startDate.zone?.tzid === 'UTC',
      sequence: event.sequence,
      status: vevent.getFirstPropertyValue('status'),
      url: vevent.getFirstPropertyValue('url'),
      organizer: String(vevent.getFirstPropertyValue('organizer') ?? ''),
      attendees: event.attendees.map((a) => String(a.getFirstValue())),
    }
  })
  return { method: calendar.getFirstPropertyValue('method'), events }
}
