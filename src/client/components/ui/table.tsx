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
 * whole page; the region takes focus so the keyboard can scroll it too. A stacked table (see
 * `Table`) has nothing to scroll on a phone.
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

type TableProps = ComponentProps<'table'> & {
  /**
   * On a phone (below 48rem) each row becomes a card: one cell a line, named by its column
   * (`TableCell`'s `label`), so no row is wider than the screen (`.table-stack`, styles.css).
   */
  stack?: boolean
}

// The roles are written out: a stacked table's rows and cells are laid out as blocks, which some
// browsers take to mean they are no longer a table's; the roles keep them one.
export function Table({ className, stack = false, ...props }: TableProps) {
  return (
    <table
      role="table"
      className={cn('w-full border-collapse text-left text-sm', stack && 'table-stack', className)}
      {...props}
    />
  )
}

export function TableHeader(props: ComponentProps<'thead'>) {
  return <thead role="rowgroup" {...props} />
}

export function TableBody(props: ComponentProps<'tbody'>) {
  return <tbody role="rowgroup" {...props} />
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      role="columnheader"
      className={cn(
        'border-b border-line px-3 py-2 align-bottom font-mono text-xs font-semibold text-ink-muted',
        className,
      )}
      {...props}
    />
  )
}

type TableCellProps = ComponentProps<'td'> & {
  /** The cell's column, shown beside it when a stacked table's row is a card. */
  label?: string
}

export function TableCell({ className, label, ...props }: TableCellProps) {
  return (
    <td
      role="cell"
      data-label={label}
      className={cn('border-b border-line/60 px-3 py-2 align-middle', className)}
      {...props}
    />
  )
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr role="row" className={cn('last:[&>td]:border-b-0', className)} {...props} />
}
