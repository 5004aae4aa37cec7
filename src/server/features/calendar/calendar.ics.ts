import addressparser from 'nodemailer/lib/addressparser'
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator'
import { links } from '../../lib/links'

/** What a calendar entry says about one podclub. */
export type CalendarPodclub = {
  id: number
  episodeTitle: string
  podcastName: string
  startsAt: Date
  durationMinutes: number
  location: 'zoom' | 'nyc' | null
  description: string
  /** Raised on every change of time or place (the entry's SEQUENCE). */
  sequence: number
  status: 'upcoming' | 'completed' | 'cancelled'
}

export type CalendarSettings = {
  APP_URL: string
  MAIL_FROM: string
  NYC_OFFICE_ADDRESS: string
}

/**
 * How the file is meant: `publish` for a download or a feed, `request` for the seat e-mails (the
 * entry belongs in the member's calendar, and a later one with the same UID replaces it),
 * `cancel` when the member no longer has the seat or the podclub is off.
 */
export type CalendarMethod = 'publish' | 'request' | 'cancel'

const METHODS: Record<CalendarMethod, ICalCalendarMethod> = {
  publish: ICalCalendarMethod.PUBLISH,
  request: ICalCalendarMethod.REQUEST,
  cancel: ICalCalendarMethod.CANCEL,
}

/** The same UID for a podclub in every file, so each update replaces the entry it follows. */
export function podclubUid(podclubId: number, appUrl: string): string {
  return `podclub-${podclubId}@${new URL(appUrl).hostname}`
}

/** `podclub <hello@podclub.local>` → its name and address, for ORGANIZER. */
function organizerOf(mailFrom: string): { name: string; email: string } {
  const [sender] = addressparser(mailFrom, { flatten: true })
  return { name: sender?.name || 'podclub', email: sender?.address ?? mailFrom.trim() }
}

function locationOf(podclub: CalendarPodclub, env: CalendarSettings): string {
  return podclub.location === 'nyc' ? env.NYC_OFFICE_ADDRESS : 'Zoom'
}

/**
 * An iCalendar file (RFC 5545) with one VEVENT per podclub: start in UTC, the podclub's length,
 * the episode and podcast as its summary, Zoom or the office as its place, the page's URL.
 * `attendee` names the member a `request` or `cancel` is for.
 */
export function buildCalendar(
  podclubs: CalendarPodclub[],
  opts: {
    method: CalendarMethod
    env: CalendarSettings
    now: Date
    attendee?: { name: string; email: string }
    /** The feed's name in a calendar app. */
    name?: string
  },
): string {
  const { env, method } = opts
  const calendar = ical({
    prodId: { company: 'podclub', product: 'podclub', language: 'EN' },
    method: METHODS[method],
    ...(opts.name ? { name: opts.name } : {}),
  })
  const organizer = organizerOf(env.MAIL_FROM)
  for (const podclub of podclubs) {
    const url = links(env).podclub(podclub.id)
    const cancelled = method === 'cancel' || podclub.status === 'cancelled'
    calendar.createEvent({
      id: podclubUid(podclub.id, env.APP_URL),
      sequence: podclub.sequence,
      stamp: opts.now,
      start: podclub.startsAt,
      end: new Date(podclub.startsAt.getTime() + podclub.durationMinutes * 60_000),
      summary: `podclub: ${podclub.episodeTitle} (${podclub.podcastName})`,
      location: locationOf(podclub, env),
      url,
      description: [podclub.description.trim(), url].filter(Boolean).join('\n\n'),
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      ...(method === 'publish' ? {} : { organizer }),
      ...(opts.attendee && method !== 'publish'
        ? {
            attendees: [
              {
                name: opts.attendee.name,
                email: opts.attendee.email,
                role: ICalAttendeeRole.REQ,
                status: cancelled ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
                rsvp: false,
              },
            ],
          }
        : {}),
    })
  }
  return calendar.toString()
}
