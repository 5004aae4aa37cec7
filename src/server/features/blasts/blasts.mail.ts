import type { Podclub } from '#contract/podclubs'
import type { Env } from '../../lib/env'
import { escapeHtml } from '../../lib/html'
import { links } from '../../lib/links'
import type { OutgoingMail } from '../mail/mail.service'

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
  const url = (p: Podclub) => link.podclub(p.id)
  const where = (p: Podclub) => (p.location === 'nyc' ? 'in person, NYC' : 'online')
  const lines = podclubs.map(
    (p) =>
      `- "${p.episode_title}" (${p.podcast.name})\n  ${p.pretty_date} at ${p.pretty_time}, ${where(p)}\n  ${url(p)}`,
  )
  const items = podclubs
    .map(
      (p) =>
        `<li><a href="${escapeHtml(url(p))}"><strong>${escapeHtml(p.episode_title)}</strong></a>` +
        ` (${escapeHtml(p.podcast.name)})<br>${escapeHtml(p.pretty_date)} at ${escapeHtml(p.pretty_time)}, ${where(p)}</li>`,
    )
    .join('')
  const subject = `${opts.test ? '[test] ' : ''}This month at podclub: three episodes worth talking about`
  return {
    kind: opts.test ? 'test-blast' : 'monthly-blast',
    to: recipient.email,
    subject,
    text:
      `Hi ${recipient.username},\n\nThree podclubs are open for seats this month:\n\n${lines.join('\n\n')}\n\n` +
      `Nine seats each, first come first served: ${link.home()}\n\n` +
      `No more of these monthly e-mails? Unsubscribe: ${unsubscribe.page}\n` +
      '(Reminders for seats you hold still come.)\n',
    html:
      `<p>Hi ${escapeHtml(recipient.username)},</p><p>Three podclubs are open for seats this month:</p>` +
      `<ul>${items}</ul>` +
      `<p>Nine seats each, first come first served: <a href="${escapeHtml(link.home())}">find a seat</a>.</p>` +
      `<p style="font-size:12px;color:#555">No more of these monthly e-mails? <a href="${escapeHtml(unsubscribe.page)}">Unsubscribe</a>. Reminders for seats you hold still come.</p>`,
    headers: {
      // RFC 8058: mail clients offer one-click unsubscribe and POST to this address.
      'List-Unsubscribe': `<${unsubscribe.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...(opts.dedupeKey ? { dedupeKey: opts.dedupeKey } : {}),
  }
}
