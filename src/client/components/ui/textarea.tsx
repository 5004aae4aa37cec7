import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'min-h-24 w-full rounded-sm border border-line bg-paper-raised px-3 py-2 text-base text-ink placeholder:text-ink-muted/70 disabled:opacity-60 aria-invalid:border-danger sm:text-sm',
        className,
      )}
      {...props}
    />
  )
}
