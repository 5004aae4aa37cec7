import type { AppDeps } from '../../deps'
import { inviteCodes } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { links } from '../../lib/links'
import { randomToken } from '../../lib/tokens'
import type { AuthUser } from '../../plugins/session'
import { enqueueMail } from '../mail/mail.service'

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** A welcome code: single use, hard to guess, easy to read in a link. */
export const newWelcomeCode = () => `welcome-${randomToken(9)}`

/**
 * Makes a single-use welcome code for the address and mails it with the member's note, in one
 * transaction: the code exists exactly when its e-mail is on its way.
 */
export async function sendInvite(
  deps: AppDeps,
  actor: AuthUser,
  input: { email: string; note?: string },
): Promise<void> {
  const code = newWelcomeCode()
  const link = links(deps.env).register(code)
  const subject = `${actor.username} invited you to podclub`
  const intro = `${actor.username} thinks you'd like podclub, an invite-only book club for podcasts: small discussions of one episode at a time, online or in New York, nine seats each.`
  const noteText = input.note ? `\n\nTheir note:\n"${input.note}"` : ''
  const text = `${intro}${noteText}\n\nJoin with this link (it works once):\n${link}\n\nSee you at a podclub.`
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    input.note
      ? `<p>Their note:</p><blockquote style="white-space:pre-wrap">${escapeHtml(input.note)}</blockquote>`
      : '',
    `<p><a href="${escapeHtml(link)}">Join podclub</a> (the link works once)</p>`,
    '<p>See you at a podclub.</p>',
  ].join('')

  await transaction(deps, async (tx) => {
    await tx.insert(inviteCodes).values({
      code,
      reusable: false,
      createdById: actor.id,
      sentToEmail: input.email,
    })
    await enqueueMail(tx, { kind: 'invite', to: input.email, subject, text, html })
  })
}
