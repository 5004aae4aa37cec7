import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

export const badgeVariants = cva(
  'inline-flex max-w-full items-center rounded-sm px-2 py-0.5 font-mono text-xs',
  {
    variants: {
      variant: {
        default: 'bg-accent text-on-accent',
        soft: 'bg-accent-soft text-accent-strong',
        outline: 'border border-line text-ink',
      },
    },
    defaultVariants: { variant: 'soft' },
  },
)

export function Badge({
  className,
  variant,
  ...props
}: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />
}
