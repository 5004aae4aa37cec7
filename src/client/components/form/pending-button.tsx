import type { ReactNode } from 'react'
import { Button, type ButtonProps } from '#client/components/ui/button'
import { Spinner } from '#client/components/ui/spinner'

export type PendingButtonProps = Omit<ButtonProps, 'asChild'> & {
  /** A request of this button is on its way: the button is disabled and says so. */
  isPending: boolean
  /** What the button reads while pending ('[ sending… ]'); its usual label when left out. */
  pendingLabel?: ReactNode
  /** Shows the spinner while pending; the home cards only change their words (spec 1 §4). */
  spinner?: boolean
}

/**
 * The button that sends a form (a submit button unless `type` says otherwise): disabled while
 * its request runs, so a second click or Enter cannot send twice, with the spec's pending text.
 * In a server-rendered page a press before the page runs is held and replayed (lib/early-taps.ts).
 */
export function PendingButton({
  isPending,
  pendingLabel,
  spinner = true,
  disabled,
  type = 'submit',
  children,
  ...props
}: PendingButtonProps) {
  return (
    <Button type={type} disabled={isPending || disabled} {...props}>
      {isPending && spinner ? <Spinner /> : null}
      {isPending && pendingLabel !== undefined ? pendingLabel : children}
    </Button>
  )
}
