import { prettyDate, prettyTime, startsWhen } from '#contract/club-time'
import type { Env } from '../../lib/env'
import { escapeHtml, linkified } from '../../lib/html'
import { links } from '../../lib/links'
import type { OutgoingMail } from '../mail/mail.service'

export type NoticeKind = '1w' | '1d' | '10m'

export type ReminderPodclub = {
  id: number
  episodeTitle: string
  podcastName: string
  startsAt: Date
  location: 'zoom' | 'nyc' | null
  zoomLink: string
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
  const url = links(env).podclub(podclub.id)
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
