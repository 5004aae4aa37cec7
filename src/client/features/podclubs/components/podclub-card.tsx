import { Link } from 'react-router'
import type { Podclub } from '#contract/podclubs'
import { ExpandableText } from '#client/components/ui/expandable-text'
import { PodcastPicture } from '#client/components/ui/podcast-picture'
import { deriveLinks } from '#client/lib/links'
import { seatLabel } from '../lib/share'
import { SeatAction } from './seat-action'

const LOCATION_LABELS = { zoom: 'Online', nyc: 'NYC' } as const

export type PodclubCardProps = {
  podclub: Podclub
  /** The logged-in member's username; null for a visitor. */
  username: string | null
}

/**
 * Spec 1 §2 'podclub card': what it shows; its states (§4) are the seat action's, shared with
 * the detail page.
 */
export function PodclubCard({ podclub, username }: PodclubCardProps) {
  const links = deriveLinks([podclub.link_one, podclub.link_two, podclub.link_three])
  const keywords = [podclub.keyword_one, podclub.keyword_two, podclub.keyword_three]
    .map((k) => k.trim())
    .filter(Boolean)
    .slice(0, 3)
  const titleId = `podclub-${podclub.id}-title`

  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-4 rounded-sm border border-line bg-paper-raised p-5"
    >
      <header className="flex items-start gap-3">
        <PodcastPicture name={podclub.podcast.name} src={podclub.podcast.picture_link} />
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg leading-snug font-semibold text-balance">
            <Link to={`/podclubs/${podclub.id}`} className="hover:underline">
              {podclub.episode_title}
            </Link>
          </h2>
          <p className="font-mono text-sm text-ink-muted">{podclub.podcast.name}</p>
        </div>
      </header>

      {podclub.description ? (
        <ExpandableText text={podclub.description} className="text-sm" />
      ) : null}

      {podclub.podmeister_note ? (
        <figure className="border-l-2 border-accent pl-3 text-sm">
          <blockquote>
            <ExpandableText text={podclub.podmeister_note} quoted className="italic" />
          </blockquote>
          <figcaption className="mt-1 font-mono text-xs text-ink-muted">
            — {podclub.podmeister.username}, podmeister
          </figcaption>
        </figure>
      ) : null}

      {links.length > 0 ? (
        <ul aria-label="Listen" className="flex flex-wrap gap-2">
          {links.map((link) => {
            return (
              <li key={link.url}>
                <a
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 rounded-sm border border-line px-2 py-1 font-mono text-xs hover:bg-accent-soft"
                >
                  <span aria-hidden>{link.type === 'external' ? '↗' : '▶'}</span>
                  {link.label}
                </a>
              </li>
            )
          })}
        </ul>
      ) : null}

      {keywords.length > 0 ? (
        <ul aria-label="Keywords" className="flex flex-wrap gap-1.5">
          {keywords.map((k) => (
            <li
              key={k}
              className="rounded-full bg-accent-soft px-2.5 py-0.5 font-mono text-xs text-accent-strong"
            >
              {k}
            </li>
          ))}
        </ul>
      ) : null}

      <dl className="mt-auto grid gap-1 font-mono text-sm">
        <Fact term="date" value={podclub.pretty_date} />
        <Fact term="time" value={podclub.pretty_time} />
        <Fact
          term="where"
          value={podclub.location ? LOCATION_LABELS[podclub.location] : 'Online'}
        />
      </dl>
      <p className="font-mono text-sm font-semibold">{seatLabel(podclub.seats_left)}</p>

      <SeatAction podclub={podclub} username={username} />
    </article>
  )
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex gap-2">
      <dt className="w-12 shrink-0 text-ink-muted">{term}</dt>
      <dd>{value}</dd>
    </div>
  )
}
