import { renderMail, type RenderedMail } from './layout'

export const PASSWORD_RESET_VALID_MINUTES = 60

/** The link of a password reset, asked for on /forgot-password. */
export function passwordResetMail(input: { username: string; resetUrl: string }): RenderedMail {
  return renderMail({
    subject: 'Reset your podclub password',
    greeting: `Hi ${input.username},`,
    intro: [
      'Someone, hopefully you, asked to reset the password of your podclub account. Choose a new one here:',
    ],
    action: { label: 'choose a new password', url: input.resetUrl },
    outro: [
      `The link works once, for ${PASSWORD_RESET_VALID_MINUTES} minutes. Setting the new password logs you out everywhere else.`,
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ],
  })
}
