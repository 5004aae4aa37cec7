import { LoaderCircle } from 'lucide-react'
import { cn } from '#client/lib/cn'

/** Decorative: whatever is busy says so in words (a label or aria-busy). */
export function Spinner({ className }: { className?: string }) {
  return (
    <LoaderCircle
      aria-hidden
      className={cn('animate-spin motion-reduce:animate-none', className)}
    />
  )
}
