import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

export const textareaVariants = cva(
  'w-full rounded-sm border border-line bg-paper-raised px-3 text-base text-ink placeholder:text-ink-muted/70 disabled:opacity-60 aria-invalid:border-danger sm:text-sm',
  {
    variants: {
      size: {
        default: 'min-h-24 py-2',
        /** A short note inside a home card. */
        sm: 'min-h-20 py-2',
        /** Roomier, for pasted text such as a chat log. */
        lg: 'min-h-24 py-3',
      },
    },
    defaultVariants: { size: 'default' },
  },
)

export type TextareaProps = ComponentProps<'textarea'> & VariantProps<typeof textareaVariants>

export function Textarea({ className, size, ...props }: TextareaProps) {
  return <textarea className={cn(textareaVariants({ size }), className)} {...props} />
}
