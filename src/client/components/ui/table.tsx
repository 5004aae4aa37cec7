import type { ComponentProps, ReactNode } from 'react'
import { cn } from '#client/lib/cn'

type TableRegionProps = {
  /** Names the scrolling region and the table for assistive technology. */
  label: string
  children: ReactNode
  className?: string
}

/**
 * A wide table scrolls sideways inside its own labelled region, so a phone never scrolls the
 * whole page; the region takes focus so the keyboard can scroll it too.
 */
export function TableRegion({ label, children, className }: TableRegionProps) {
  return (
    <div
      // relative: screen-reader-only text inside stays in the scroller instead of widening the page.
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn(
        'relative overflow-x-auto rounded-sm border border-line bg-paper-raised',
        className,
      )}
    >
      {children}
    </div>
  )
}

export function Table({ className, ...props }: ComponentProps<'table'>) {
  return <table className={cn('w-full border-collapse text-left text-sm', className)} {...props} />
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      className={cn(
        'border-b border-line px-3 py-2 align-bottom font-mono text-xs font-semibold text-ink-muted',
        className,
      )}
      {...props}
    />
  )
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return (
    <td className={cn('border-b border-line/60 px-3 py-2 align-middle', className)} {...props} />
  )
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('last:[&>td]:border-b-0', className)} {...props} />
}
