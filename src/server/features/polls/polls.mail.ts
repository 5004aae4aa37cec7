import type { OutgoingMail } from '../mail/mail.service'
import { renderMail } from '../mail/templates/index'

type PollMailInput = {
  to: string
  pollTitle: string
  /** The poll window, with the vote code in the path when there is one to use. */
  link: string
  closes: string
}

// Both mails go to whoever typed the address into the poll window, member or not: no name to
// greet them by. They share the club's frame (name, motto, text and HTML parts) with every
// other mail; the frame escapes the poll title in the HTML part.

/** The mail with a fresh vote code: one link that opens the poll ready to vote. */
export function voteCodeMail({ to, pollTitle, link, closes }: PollMailInput): OutgoingMail {
  const title = pollTitle.trim()
  return {
    kind: 'poll-vote-code',
    to,
    ...renderMail({
      subject: `Your vote code for ${title}`,
      greeting: 'Hello,',
      intro: [
        `Here is your vote in the podclub poll "${title}". Open the link and pick the podcast you want for next month's deep dive.`,
      ],
      action: { label: 'open the poll and vote', url: link },
      outro: [
        `The code in the link casts one vote, once. Voting closes ${closes}.`,
        'If you did not ask for this code, you can ignore this e-mail.',
        '#voteordie',
      ],
    }),
  }
}

/** Asked again after voting: no second code, only the way to the results. */
export function alreadyVotedMail({ to, pollTitle, link, closes }: PollMailInput): OutgoingMail {
  const title = pollTitle.trim()
  return {
    kind: 'poll-already-voted',
    to,
    ...renderMail({
      subject: `You have already voted in ${title}`,
      greeting: 'Hello,',
      intro: [
        `A vote code for the podclub poll "${title}" was asked for this address, but its vote has already been cast. Each address votes once.`,
      ],
      action: { label: 'see how the poll stands', url: link },
      outro: [`Voting closes ${closes}.`],
    }),
  }
}
