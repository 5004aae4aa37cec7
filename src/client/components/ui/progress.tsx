import { Progress as ProgressPrimitive } from 'radix-ui'
import { cn } from '#client/lib/cn'

export function Progress({
  value,
  label,
  className,
}: {
  /** 0 to 100. */
  value: number
  label: string
  className?: string
}) {
  return (
    <ProgressPrimitive.Root
      value={value}
      aria-label={label}
      className={cn('relative h-2 w-full overflow-hidden rounded-sm bg-accent-soft', className)}
    >
      <ProgressPrimitive.Indicator
        className="h-full bg-accent transition-transform motion-reduce:transition-none"
        style={{ transform: `translateX(-${100 - value}%)` }}
      />
    </ProgressPrimitive.Root>
  )
}
