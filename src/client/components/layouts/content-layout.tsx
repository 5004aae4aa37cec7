import type { ReactNode } from 'react'
import { pageTitle } from '#client/lib/page-title'
import { cn } from '#client/lib/cn'

type ContentLayoutProps = {
  /** The screen's h1, also used for the document title. */
  title: string
  children?: ReactNode
  className?: string
}

/** Every screen starts here, so each page has one h1 and a title the browser tab can show. */
export function ContentLayout({ title, children, className }: ContentLayoutProps) {
  return (
    <div className={cn('grid gap-6', className)}>
      <title>{pageTitle(title)}</title>
      <h1 className="font-mono text-2xl font-semibold tracking-tight text-balance sm:text-3xl">
        {title}
      </h1>
      {children}
    </div>
  )
}
