import type { Podclub } from '#contract/podclubs'
import type { Env } from '../../lib/env'
import { links } from '../../lib/links'
import type { OutgoingMail } from '../mail/mail.service'
import { renderMail } from '../mail/templates/index'

/** Links a blast carries so its recipient can leave: the page, and the one-click POST. */
export type UnsubscribeLinks = { page: string; oneClick: string }

/** Where the member stands with one podclub of the blast, as its line says it. */
function seatLine(p: Podclub, role: 'podmeister' | 'seat' | undefined): string {
  if (role === 'podmeister') return "You're in: you are its podmeister."
  if (role === 'seat') return "You're in: you hold a seat."
  if (p.seats_left === 0) return 'Full: the seat waitlist is open.'
  return p.seats_left === 1 ? '1 seat left.' : `${p.seats_left} seats left.`
}

/**
 * The monthly blast to one member: three upcoming podclubs, each with the member's own place in
 * it or its seats left as they are when this mail is queued, and a way out.
 */
export function blastMail(
  podclubs: Podclub[],
  recipient: { username: string; email: string },
  unsubscribe: UnsubscribeLinks,
  env: Env,
  opts: {
    test: boolean
    dedupeKey?: string
    /** The podclubs the member takes part in, by id: as podmeister or holding a seat. */
    held?: ReadonlyMap<number, 'podmeister' | 'seat'>
  },
): OutgoingMail {
  const link = links(env)
  const where = (p: Podclub) => (p.location === 'nyc' ? 'in person, NYC' : 'online')
  const held = opts.held ?? new Map()
  const seatsToFind = podclubs.some((p) => !held.has(p.id) && p.seats_left > 0)
  const mail = renderMail({
    subject: `${opts.test ? '[test] ' : ''}This month at podclub: three episodes worth talking about`,
    greeting: `Hi ${recipient.username},`,
    intro: [
      'Three podclubs are open for seats this month:',
      {
        list: podclubs.map((p) => [
          `"${p.episode_title}" (${p.podcast.name})`,
          `${p.pretty_date} at ${p.pretty_time}, ${where(p)}`,
          seatLine(p, held.get(p.id)),
          [{ url: link.podclub(p.id) }],
        ]),
      },
      ...(seatsToFind ? ['Seats go first come, first served.'] : []),
    ],
    action: seatsToFind
      ? { label: 'find a seat', url: link.home() }
      : { label: 'see the podclubs', url: link.home() },
    footer: [
      ['No more of these monthly e-mails? ', { label: 'Unsubscribe', url: unsubscribe.page }],
      '(Reminders for seats you hold still come.)',
    ],
  })
  return {
    kind: opts.test ? 'test-blast' : 'monthly-blast',
    to: recipient.email,
    ...mail,
    headers: {
      // RFC 8058: mail clients offer one-click unsubscribe and POST to this address.
      'List-Unsubscribe': `<${unsubscribe.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...(opts.dedupeKey ? { dedupeKey: opts.dedupeKey } : {}),
  }
}
