import { useState } from 'react'
import { cn } from '#client/lib/cn'

/**
 * A podcast's picture, or its initial on the club's green when there is none or it fails to load
 * (gone, or refused by the page's image policy) instead of a broken-image icon.
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
      className={cn(
        box,
        'grid shrink-0 place-items-center rounded-sm bg-accent font-mono text-on-accent',
      )}
    >
      {name.trim().charAt(0).toLowerCase() || 'p'}
    </div>
  )
}
