import { links } from '../../../lib/links'
import { renderMail, type RenderedMail } from './layout'

/**
 * To a member whose e-mail address someone typed into the sign-up form: the form does not say
 * whose address it is (docs/decisions/013), this e-mail tells its owner what to do instead.
 */
export function signupAttemptMail(input: { appUrl: string; username: string }): RenderedMail {
  const link = links({ APP_URL: input.appUrl })
  return renderMail({
    subject: 'Someone tried to sign up to podclub with your e-mail address',
    greeting: `Hi ${input.username},`,
    intro: [
      'Someone, perhaps you, just tried to create a new podclub account with this e-mail address. It already belongs to your account, so no new account was made.',
      'If it was you, log in with your username or this address:',
    ],
    action: { label: 'log in', url: link.login() },
    outro: [
      ['Forgot your password? Choose a new one at ', { url: link.forgotPassword() }],
      'If it was not you, there is nothing to do: your account has not changed.',
    ],
  })
}
