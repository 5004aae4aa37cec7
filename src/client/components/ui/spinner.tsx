import { cn } from '#client/lib/cn'
import { ArcIcon } from './shell-icons'

/** Decorative: whatever is busy says so in words (a label or aria-busy). */
export function Spinner({ className }: { className?: string }) {
  return (
    <ArcIcon aria-hidden className={cn('animate-spin motion-reduce:animate-none', className)} />
  )
}
