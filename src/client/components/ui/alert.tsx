import type { ReactNode } from 'react'
import { cn } from '#client/lib/cn'

/** A message that stays on the page (unlike a toast); `role="alert"` reads it out once. */
export function Alert({
  title,
  children,
  className,
}: {
  title: string
  children?: ReactNode
  className?: string
}) {
  return (
    <div
      role="alert"
      className={cn('rounded-sm border border-danger bg-danger-soft p-4 text-danger', className)}
    >
      <p className="font-mono font-semibold">{title}</p>
      {children ? <div className="mt-1 text-sm">{children}</div> : null}
    </div>
  )
}
