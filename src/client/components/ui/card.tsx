import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

export function Card({ className, ...props }: ComponentProps<'section'>) {
  return (
    <section
      className={cn('rounded-sm border border-line bg-paper-raised p-4 sm:p-6', className)}
      {...props}
    />
  )
}

export function CardTitle({ className, ...props }: ComponentProps<'h2'>) {
  return (
    <h2
      className={cn('mb-3 font-mono text-lg font-semibold tracking-tight', className)}
      {...props}
    />
  )
}
