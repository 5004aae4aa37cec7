import { linkPaths } from '#contract/pages'
import type { Podclub } from '#contract/podclubs'

/**
 * The X post-intent page with the share text filled in: episode, podcast, the pretty date and
 * the club code that lets a friend sign up, and the podclub's URL. `appUrl` is the club's public
 * address as the config call gives it (APP_URL, without a trailing slash) or this page's origin.
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
  const params = new URLSearchParams({ text, url: `${appUrl}${linkPaths.podclub(podclub.id)}` })
  return `https://x.com/intent/post?${params.toString()}`
}

export function seatLabel(seatsLeft: number) {
  if (seatsLeft <= 0) return 'No seats left'
  return seatsLeft === 1 ? '1 seat left' : `${seatsLeft} seats left`
}
