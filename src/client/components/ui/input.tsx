import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(
        'h-10 w-full rounded-sm border border-line bg-paper-raised px-3 text-base text-ink placeholder:text-ink-muted/70 disabled:opacity-60 aria-invalid:border-danger sm:text-sm',
        className,
      )}
      {...props}
    />
  )
}
