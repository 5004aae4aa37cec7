import type { OutgoingMail } from '../mail/mail.service'

const escapeHtml = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

type PollMailInput = {
  to: string
  pollTitle: string
  /** The poll window, with the vote code in the path when there is one to use. */
  link: string
  closes: string
}

/** The mail with a fresh vote code: one link that opens the poll ready to vote. */
export function voteCodeMail({ to, pollTitle, link, closes }: PollMailInput): OutgoingMail {
  const title = pollTitle.trim()
  return {
    kind: 'poll-vote-code',
    to,
    subject: `Your vote code for ${title}`,
    text:
      `Here is your vote for "${title}".\n\n` +
      `Open this link and pick the podcast you want for next month's deep dive:\n${link}\n\n` +
      `The code in the link casts one vote, once. Voting closes ${closes}.\n` +
      'If you did not ask for this code, you can ignore this e-mail.\n\n' +
      '#voteordie\n',
    html:
      `<p>Here is your vote for &ldquo;${escapeHtml(title)}&rdquo;.</p>` +
      `<p><a href="${escapeHtml(link)}">Open the poll and vote</a></p>` +
      `<p>The code in the link casts one vote, once. Voting closes ${escapeHtml(closes)}.<br>` +
      'If you did not ask for this code, you can ignore this e-mail.</p>' +
      '<p>#voteordie</p>',
  }
}

/** Asked again after voting: no second code, only the way to the results. */
export function alreadyVotedMail({ to, pollTitle, link, closes }: PollMailInput): OutgoingMail {
  const title = pollTitle.trim()
  return {
    kind: 'poll-already-voted',
    to,
    subject: `You have already voted in ${title}`,
    text:
      `A vote code for "${title}" was asked for this address, but its vote has already been cast.\n` +
      `Each address votes once. See how the poll stands:\n${link}\n\n` +
      `Voting closes ${closes}.\n`,
    html:
      `<p>A vote code for &ldquo;${escapeHtml(title)}&rdquo; was asked for this address, ` +
      'but its vote has already been cast. Each address votes once.</p>' +
      `<p><a href="${escapeHtml(link)}">See how the poll stands</a></p>` +
      `<p>Voting closes ${escapeHtml(closes)}.</p>`,
  }
}
