import type { ComponentProps, ReactNode } from 'react'
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

type SectionCardProps = {
  /** The section's h2; also names the section landmark. */
  title: string
  id: string
  description?: ReactNode
  actions?: ReactNode
  children: ReactNode
  className?: string
}

/** One titled block of a screen, such as a table or a form of the control panel. */
export function SectionCard({
  title,
  id,
  description,
  actions,
  children,
  className,
}: SectionCardProps) {
  const headingId = `${id}-title`
  return (
    // Not a landmark itself: its table or list is the named region, so names don't repeat.
    <section className={cn('grid min-w-0 content-start gap-3', className)}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="grid gap-1">
          <h2 id={headingId} className="font-mono text-lg font-semibold">
            {title}
          </h2>
          {description ? <p className="text-sm text-ink-muted">{description}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </section>
  )
}
