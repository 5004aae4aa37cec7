import { links } from '../../../lib/links'
import { renderMail, type RenderedMail } from './layout'

/** Sent once an account exists: where to start, and the link that confirms the address. */
export function welcomeMail(input: {
  /** APP_URL, as the settings have it. */
  appUrl: string
  username: string
  confirmUrl: string
}): RenderedMail {
  return renderMail({
    subject: 'Welcome to podclub',
    greeting: `Hi ${input.username},`,
    intro: [
      'Welcome to podclub, a book club for podcasts. Members pick an episode, meet in a small group of up to nine on Zoom or in person, and talk it through.',
      ['Pick a podclub to join: ', { url: links({ APP_URL: input.appUrl }).home() }],
      'One more thing: please confirm that this address is yours, so reminders and invites reach you.',
    ],
    action: { label: 'confirm my e-mail', url: input.confirmUrl },
    outro: ['See you at the table.'],
  })
}
