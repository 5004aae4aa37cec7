import { prettyDate, prettyTime } from '#contract/club-time'
import { links } from '../../lib/links'
import { renderMail } from '../mail/templates/index'
import type { OutgoingMail } from '../mail/mail.service'
import {
  buildCalendar,
  type CalendarPodclub,
  type CalendarSettings,
} from '../calendar/calendar.ics'

/**
 * Why a member hears about their seat. Each carries the podclub's `.ics`: an entry to add or
 * replace, or (for `cancelled` and `podclub-cancelled`) one that takes it out of the calendar.
 * These are transactional: sent whatever the member chose about monthly blasts.
 */
export type SeatMailKind = 'confirmed' | 'promoted' | 'cancelled' | 'changed' | 'podclub-cancelled'

export type SeatMailRecipient = { username: string; email: string }

const CANCELS: ReadonlySet<SeatMailKind> = new Set(['cancelled', 'podclub-cancelled'])

function whereOf(podclub: CalendarPodclub, env: CalendarSettings): string {
  return podclub.location === 'nyc'
    ? `in person at ${env.NYC_OFFICE_ADDRESS}`
    : 'online, on Zoom (the link comes 10 minutes before the start)'
}

function content(kind: SeatMailKind, podclub: CalendarPodclub, env: CalendarSettings) {
  const episode = `"${podclub.episodeTitle}" (${podclub.podcastName})`
  const when = `${prettyDate(podclub.startsAt)} at ${prettyTime(podclub.startsAt)}`
  const where = whereOf(podclub, env)
  switch (kind) {
    case 'confirmed':
      return {
        subject: `Your seat for ${episode} on ${prettyDate(podclub.startsAt)}`,
        intro: [
          `You have a seat at the podclub on ${episode}: ${when}, ${where}.`,
          'The calendar entry is attached, so it lands in your calendar with one click.',
        ],
      }
    case 'promoted':
      return {
        subject: `You're in: a seat opened up for ${episode}`,
        intro: [
          `A seat opened up and it is yours: the podclub on ${episode}, ${when}, ${where}.`,
          'You have left the seat waitlist. The calendar entry is attached.',
          "Can't make it after all? Cancel on the podclub's card, so the next person in line gets the seat.",
        ],
      }
    case 'cancelled':
      return {
        subject: `Seat cancelled: ${episode}`,
        intro: [
          `You gave back your seat at the podclub on ${episode} (${when}).`,
          'The attached file takes it out of your calendar. Changed your mind? Register again while seats are left.',
        ],
      }
    case 'changed':
      return {
        subject: `Changed: ${episode} is now ${when}`,
        intro: [
          `The podclub on ${episode} has changed. It is now ${when}, ${where}.`,
          'The attached calendar entry replaces the one you have.',
        ],
      }
    case 'podclub-cancelled':
      return {
        subject: `Cancelled: the podclub on ${episode}`,
        intro: [
          `The podclub on ${episode} planned for ${when} has been cancelled.`,
          'The attached file takes it out of your calendar. Sorry for the change of plans.',
        ],
      }
  }
}

/** The e-mail about one member's seat, with the podclub's `.ics` attached. */
export function seatMail(
  kind: SeatMailKind,
  podclub: CalendarPodclub,
  recipient: SeatMailRecipient,
  env: CalendarSettings,
  now: Date,
): OutgoingMail {
  const { subject, intro } = content(kind, podclub, env)
  const method = CANCELS.has(kind) ? 'cancel' : 'request'
  const rendered = renderMail({
    subject,
    greeting: `Hi ${recipient.username},`,
    intro,
    action: { label: 'see the podclub', url: links(env).podclub(podclub.id) },
  })
  const ics = buildCalendar([podclub], {
    method,
    env,
    now,
    attendee: { name: recipient.username, email: recipient.email },
  })
  return {
    kind: `seat-${kind}`,
    to: recipient.email,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    attachments: [
      {
        filename: method === 'cancel' ? 'cancel.ics' : 'invite.ics',
        contentType: `text/calendar; charset=utf-8; method=${method.toUpperCase()}`,
        content: ics,
      },
    ],
  }
}
