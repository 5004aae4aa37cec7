import { cva, type VariantProps } from 'class-variance-authority'
import { Slot } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

export const buttonVariants = cva(
  'inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 font-mono text-sm whitespace-nowrap transition-colors disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-accent text-on-accent hover:bg-accent-strong',
        destructive: 'bg-danger text-paper hover:bg-danger/90',
        outline: 'border border-ink/80 bg-paper-raised hover:bg-accent-soft',
        /** Outlined in the text colour it inherits, on a dark or coloured card. */
        inverse: 'border border-current bg-transparent hover:bg-white/10',
        ghost: 'hover:bg-accent-soft',
        link: 'text-accent underline-offset-4 hover:underline',
      },
      size: {
        default: 'h-10 px-4',
        sm: 'h-8 px-2',
        icon: 'size-10',
      },
      shape: {
        default: 'rounded-sm',
        round: 'rounded-full',
      },
    },
    defaultVariants: { variant: 'default', size: 'default', shape: 'default' },
  },
)

export type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    /** Render the single child (a link, say) with the button's look instead of a <button>. */
    asChild?: boolean
  }

export function Button({
  className,
  variant,
  size,
  shape,
  asChild = false,
  ...props
}: ButtonProps) {
  const Component = asChild ? Slot.Root : 'button'
  return (
    <Component className={cn(buttonVariants({ variant, size, shape }), className)} {...props} />
  )
}
