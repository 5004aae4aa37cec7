import type { Podclub } from '#contract/podclubs'

/** The podclub's page, on the club's public address. */
export function podclubUrl(appUrl: string, podclubId: number) {
  return `${appUrl.replace(/\/$/, '')}/podclubs/${podclubId}`
}

/**
 * The X post-intent page with the share text filled in: episode, podcast, the pretty date and
 * the club code that lets a friend sign up, and the podclub's URL.
 */
export function shareToXUrl(
  podclub: Pick<Podclub, 'id' | 'episode_title' | 'pretty_date' | 'podcast'>,
  clubInviteCode: string,
  appUrl: string,
) {
  const text =
    `I'm going to a podclub about "${podclub.episode_title}" from ${podclub.podcast.name} ` +
    `on ${podclub.pretty_date}. Come talk about it with me: sign up with the invite code ` +
    `${clubInviteCode}.`
  const params = new URLSearchParams({ text, url: podclubUrl(appUrl, podclub.id) })
  return `https://x.com/intent/post?${params.toString()}`
}

export function seatLabel(seatsLeft: number) {
  if (seatsLeft <= 0) return 'No seats left'
  return seatsLeft === 1 ? '1 seat left' : `${seatsLeft} seats left`
}
