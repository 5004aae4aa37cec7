import { tz } from '@date-fns/tz'
import { differenceInCalendarDays } from 'date-fns'
import { CLUB_TIME_ZONE } from '#contract/common'
import type { Env } from '../../lib/env'
import { escapeHtml, linkified } from '../../lib/html'
import type { OutgoingMail } from '../mail/mail.service'
import { prettyDate, prettyTime } from '../podclubs/podclubs.format'

export type NoticeKind = '1w' | '1d' | '10m'

export type ReminderPodclub = {
  id: number
  episodeTitle: string
  podcastName: string
  startsAt: Date
  location: 'zoom' | 'nyc' | null
  zoomLink: string
}

/**
 * When the podclub starts, said from the moment the notice is queued: 'in 10 minutes', 'today',
 * 'tomorrow', 'in 5 days', 'in one week'. A notice sent late (after downtime, or the operator's
 * 10-minute notice pressed early) still tells the truth.
 */
export function startsWhen(startsAt: Date, now: Date): string {
  const minutes = Math.ceil((startsAt.getTime() - now.getTime()) / 60_000)
  if (minutes <= 1) return minutes === 1 ? 'in 1 minute' : 'now'
  if (minutes < 60) return `in ${minutes} minutes`
  const days = differenceInCalendarDays(startsAt, now, { in: tz(CLUB_TIME_ZONE) })
  if (days <= 0) return 'today'
  if (days === 1) return 'tomorrow'
  if (days === 7) return 'in one week'
  return `in ${days} days`
}

/** Where to go: the Zoom link for zoom podclubs (with the 10-minute one), the office for nyc. */
function whereText(podclub: ReminderPodclub, kind: NoticeKind, env: Env): string {
  if (podclub.location === 'nyc') return `In person: ${env.NYC_OFFICE_ADDRESS}`
  const zoom = podclub.zoomLink || env.ZOOM_LINK
  if (kind === '10m')
    return zoom ? `Join on Zoom: ${zoom}` : 'Online: the Zoom link is on the podclub page.'
  return 'Online, on Zoom: the link comes with the 10-minute reminder.'
}

/** The reminder of one podclub to one person (podmeister or attendee). */
export function reminderMail(
  podclub: ReminderPodclub,
  kind: NoticeKind,
  recipient: { username: string; email: string; isPodmeister: boolean },
  env: Env,
  now: Date,
): OutgoingMail {
  const url = `${env.APP_URL}/podclubs/${podclub.id}`
  const when = `${prettyDate(podclub.startsAt)} at ${prettyTime(podclub.startsAt)}`
  const where = whereText(podclub, kind, env)
  const soon = startsWhen(podclub.startsAt, now)
  const role = recipient.isPodmeister ? 'You are the podmeister of this one. ' : ''
  const subject = `Reminder: "${podclub.episodeTitle}" (${podclub.podcastName}) starts ${soon}`
  const text =
    `Hi ${recipient.username},\n\n` +
    `Your podclub on "${podclub.episodeTitle}" from ${podclub.podcastName} starts ${soon}: ${when}.\n` +
    `${role}${where}\n\n` +
    `The podclub page: ${url}\n\n` +
    'See you there.\npodclub\n'
  const html =
    `<p>Hi ${escapeHtml(recipient.username)},</p>` +
    `<p>Your podclub on <strong>${escapeHtml(podclub.episodeTitle)}</strong> from ${escapeHtml(podclub.podcastName)} starts ${soon}: ${escapeHtml(when)}.</p>` +
    `<p>${escapeHtml(role)}${linkified(where)}</p>` +
    `<p>The podclub page: ${linkified(url)}</p>` +
    '<p>See you there.<br>podclub</p>'
  return {
    kind: `reminder-${kind}`,
    to: recipient.email,
    subject,
    text,
    html,
    // The start is part of the key: an operator who moves the podclub re-arms its notices for
    // the new date, and those must not be taken for the ones already sent.
    dedupeKey: `reminder-${kind}:podclub-${podclub.id}:${podclub.startsAt.toISOString()}:to-${recipient.email.toLowerCase()}`,
  }
}
