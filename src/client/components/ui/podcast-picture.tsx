import { useState } from 'react'
import { cn } from '#client/lib/cn'
import { avatarColourOf } from './avatar'

/** The capital first letter (or digit) of a podcast's name: '99% invisible' → '9'. */
export function podcastInitialOf(name: string) {
  const first = /[\p{L}\p{N}]/u.exec(name)?.[0]
  return first ? first.toLocaleUpperCase() : 'P'
}

/**
 * A podcast's picture, or a tile with its initial when there is none or it fails to load (gone,
 * or refused by the page's image policy) instead of a broken-image icon. The tile's colour comes
 * from the name (the avatars' dark colours, each well above AA with the light letter), so a feed
 * of podcasts without artwork is not a wall of identical squares.
 */
export function PodcastPicture({
  name,
  src,
  size = 'md',
  alt = '',
}: {
  name: string
  src: string
  size?: 'md' | 'lg'
  /** Empty when the podcast's name is written beside it. */
  alt?: string
}) {
  const [hasFailed, setHasFailed] = useState(false)
  const box = size === 'lg' ? 'size-28 text-4xl' : 'size-14 text-lg'
  const pixels = size === 'lg' ? 112 : 56
  if (/^https?:\/\//i.test(src) && !hasFailed) {
    return (
      <img
        src={src}
        alt={alt}
        width={pixels}
        height={pixels}
        loading={size === 'lg' ? 'eager' : 'lazy'}
        onError={() => setHasFailed(true)}
        className={cn(box, 'shrink-0 rounded-sm border border-line object-cover')}
      />
    )
  }
  return (
    <div
      aria-hidden
      data-testid="podcast-tile"
      style={{ backgroundColor: avatarColourOf(name.trim().toLocaleLowerCase()) }}
      className={cn(box, 'grid shrink-0 place-items-center rounded-sm font-mono text-on-accent')}
    >
      {podcastInitialOf(name)}
    </div>
  )
}
