import type { Podclub } from '#contract/podclubs'
import type { Env } from '../../lib/env'
import { links } from '../../lib/links'
import type { OutgoingMail } from '../mail/mail.service'
import { renderMail } from '../mail/templates/index'

/** Links a blast carries so its recipient can leave: the page, and the one-click POST. */
export type UnsubscribeLinks = { page: string; oneClick: string }

/** The monthly blast to one member: three upcoming podclubs and a way out. */
export function blastMail(
  podclubs: Podclub[],
  recipient: { username: string; email: string },
  unsubscribe: UnsubscribeLinks,
  env: Env,
  opts: { test: boolean; dedupeKey?: string },
): OutgoingMail {
  const link = links(env)
  const where = (p: Podclub) => (p.location === 'nyc' ? 'in person, NYC' : 'online')
  const mail = renderMail({
    subject: `${opts.test ? '[test] ' : ''}This month at podclub: three episodes worth talking about`,
    greeting: `Hi ${recipient.username},`,
    intro: [
      'Three podclubs are open for seats this month:',
      {
        list: podclubs.map((p) => [
          `"${p.episode_title}" (${p.podcast.name})`,
          `${p.pretty_date} at ${p.pretty_time}, ${where(p)}`,
          [{ url: link.podclub(p.id) }],
        ]),
      },
      'Nine seats each, first come first served.',
    ],
    action: { label: 'find a seat', url: link.home() },
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
