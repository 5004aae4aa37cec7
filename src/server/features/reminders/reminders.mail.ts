import { prettyDate, prettyTime, startsWhen } from '#contract/club-time'
import type { Env } from '../../lib/env'
import { links } from '../../lib/links'
import type { OutgoingMail } from '../mail/mail.service'
import { renderMail, type MailLine } from '../mail/templates/index'

/** The three reminders, and the notice an operator sends by hand ('Send Notice'). */
export type NoticeKind = '1w' | '1d' | '10m' | 'notice'

export type ReminderPodclub = {
  id: number
  episodeTitle: string
  podcastName: string
  startsAt: Date
  location: 'zoom' | 'nyc' | null
  zoomLink: string
}

/**
 * Where to go: the office for nyc; for zoom podclubs the Zoom link with the 10-minute reminder
 * and the operator's notice, else the promise of it, made only while that reminder is to come.
 */
function whereLine(
  podclub: ReminderPodclub,
  kind: NoticeKind,
  env: Env,
  tenMinuteToCome: boolean,
): MailLine {
  if (podclub.location === 'nyc') return `In person: ${env.NYC_OFFICE_ADDRESS}`
  const zoom = podclub.zoomLink || env.ZOOM_LINK
  if (kind === '10m' || kind === 'notice' || !tenMinuteToCome)
    return zoom
      ? ['Join on Zoom: ', { url: zoom }]
      : 'Online: the Zoom link is on the podclub page.'
  return 'Online, on Zoom: the link comes with the 10-minute reminder.'
}

/** The reminder of one podclub to one person (podmeister or attendee). */
export function reminderMail(
  podclub: ReminderPodclub,
  kind: NoticeKind,
  recipient: { username: string; email: string; isPodmeister: boolean },
  env: Env,
  now: Date,
  opts: {
    /** The 10-minute reminder of this podclub is still to come. */
    tenMinuteToCome: boolean
    /** The reminder whose moment an operator's notice comes after ('early' before all). */
    slot: string
  },
): OutgoingMail {
  const when = `${prettyDate(podclub.startsAt)} at ${prettyTime(podclub.startsAt)}`
  const where = whereLine(podclub, kind, env, opts.tenMinuteToCome)
  const soon = startsWhen(podclub.startsAt, now)
  const role = recipient.isPodmeister ? 'You are the podmeister of this one. ' : ''
  const mail = renderMail({
    subject: `Reminder: "${podclub.episodeTitle}" (${podclub.podcastName}) starts ${soon}`,
    greeting: `Hi ${recipient.username},`,
    intro: [
      `Your podclub on "${podclub.episodeTitle}" from ${podclub.podcastName} starts ${soon}: ${when}.`,
      [role, ...(typeof where === 'string' ? [where] : where)],
      ['The podclub page: ', { url: links(env).podclub(podclub.id) }],
    ],
    outro: ['See you there.'],
  })
  return {
    kind: `reminder-${kind}`,
    to: recipient.email,
    ...mail,
    // The start is part of the key: an operator who moves the podclub re-arms its notices for
    // the new date, and those must not be taken for the ones already sent. An operator's notice
    // goes once per reminder moment it comes after.
    dedupeKey: `reminder-${kind}:podclub-${podclub.id}:${podclub.startsAt.toISOString()}:${kind === 'notice' ? `after-${opts.slot}:` : ''}to-${recipient.email.toLowerCase()}`,
  }
}
