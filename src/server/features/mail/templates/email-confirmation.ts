import { renderMail, type RenderedMail } from './layout'

/** Sent again on request (POST /confirmationEmail/); the welcome mail carries the first link. */
export function emailConfirmationMail(input: {
  username: string
  confirmUrl: string
}): RenderedMail {
  return renderMail({
    subject: 'Confirm your podclub e-mail address',
    greeting: `Hi ${input.username},`,
    intro: ['Please confirm that this is your address, so reminders and invites reach you:'],
    action: { label: 'confirm my e-mail', url: input.confirmUrl },
    outro: [
      'The link works for 7 days. Nothing is blocked meanwhile: you can use podclub either way.',
      'If you did not sign up for podclub, ignore this e-mail.',
    ],
  })
}
