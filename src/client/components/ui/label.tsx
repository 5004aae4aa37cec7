import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('font-mono text-sm text-ink', className)} {...props} />
}
