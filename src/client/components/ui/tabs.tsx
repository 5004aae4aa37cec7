import { Tabs as Primitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn'

/**
 * Radix's tabs: a tablist the arrow keys move along (Home and End too), each tab naming and
 * controlling its panel. Our look: bracketed mono labels, the chosen one filled.
 */
export const Tabs = Primitive.Root

export function TabsList({ className, ...props }: ComponentProps<typeof Primitive.List>) {
  return <Primitive.List className={cn('flex flex-wrap gap-2', className)} {...props} />
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof Primitive.Trigger>) {
  return (
    <Primitive.Trigger
      className={cn(
        'inline-flex h-9 cursor-pointer items-center rounded-sm border border-ink/80 bg-paper-raised px-3 font-mono text-sm whitespace-nowrap text-ink hover:bg-accent-soft',
        'data-[state=active]:border-accent data-[state=active]:bg-accent data-[state=active]:text-on-accent',
        className,
      )}
      {...props}
    />
  )
}

/**
 * One tab's panel. It stays mounted while another tab shows (hidden), so what was typed into a
 * form there is still there on coming back; `isActive` says whether its tab is the chosen one.
 */
export function TabsContent({
  className,
  isActive,
  ...props
}: ComponentProps<typeof Primitive.Content> & { isActive: boolean }) {
  return (
    <Primitive.Content
      forceMount
      hidden={!isActive}
      className={cn('min-w-0 outline-none', className)}
      {...props}
    />
  )
}
