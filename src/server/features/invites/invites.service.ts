import { sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import type { AppDeps } from '../../deps'
import { inviteCodes } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { links } from '../../lib/links'
import { randomToken } from '../../lib/tokens'
import type { AuthUser } from '../../plugins/session'
import { enqueueMail, rewordSentMail } from '../mail/mail.service'
import { renderMail } from '../mail/templates/index'

/** An invite's subject names the member who sent it. */
const inviteSubject = (username: string) => `${username} invited you to podclub`

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
  // Sent to someone who is not a member yet: no name to greet them by.
  const mail = renderMail({
    subject: inviteSubject(actor.username),
    intro: [
      `${actor.username} thinks you'd like podclub, an invite-only book club for podcasts: small discussions of one episode at a time, online or in New York, nine seats each.`,
      ...(input.note ? ['Their note:', { quote: input.note }] : []),
    ],
    action: { label: 'join podclub', url: links(deps.env).register(code) },
    outro: ['The link works once.', 'See you at a podclub.'],
  })

  await transaction(deps, async (tx) => {
    await tx.insert(inviteCodes).values({
      code,
      reusable: false,
      createdById: actor.id,
      sentToEmail: input.email,
    })
    await enqueueMail(tx, { kind: 'invite', to: input.email, ...mail })
  })
}

/**
 * A member leaving the club (their account deleted): their address comes off the welcome codes
 * sent to it, and the invites they sent no longer name them: the record of those that went out
 * names 'a former member', and one still waiting is not sent.
 */
export async function forgetInvites(
  tx: Tx,
  member: { username: string; email: string },
  replacement: string,
): Promise<void> {
  await tx
    .update(inviteCodes)
    .set({ sentToEmail: null })
    .where(sql`lower(${inviteCodes.sentToEmail}) = lower(${member.email})`)
  await rewordSentMail(
    tx,
    { kind: 'invite', subject: inviteSubject(member.username) },
    inviteSubject(replacement),
  )
}
