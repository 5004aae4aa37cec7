import { Copy, RefreshCw } from 'lucide-react'
import { useId, useRef } from 'react'
import { Button } from '#client/components/ui/button'
import { Card, CardTitle } from '#client/components/ui/card'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { isApiError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import { useResetCalendarLink } from '../api/reset-calendar-link'

const HOW_TO = [
  ['Google Calendar', 'on the web, + beside Other calendars, then From URL'],
  ['Apple Calendar', 'File, then New Calendar Subscription'],
  ['Outlook', 'Add calendar, then Subscribe from web'],
] as const

/**
 * The member's secret calendar feed (beyond the spec): a URL calendar apps subscribe to, listing
 * the member's upcoming podclubs. Whoever holds it can read that list, hence 'reset link'.
 */
export function CalendarLinkCard({ calendarUrl }: { calendarUrl: string }) {
  const id = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const reset = useResetCalendarLink()

  const selectLink = () => {
    inputRef.current?.focus()
    inputRef.current?.select()
  }

  const handleCopy = async () => {
    try {
      // Missing outside secure contexts and in some browsers; refused without permission.
      if (!navigator.clipboard) throw new Error('no clipboard')
      await navigator.clipboard.writeText(calendarUrl)
      toast({ title: 'Calendar link copied', description: 'Paste it into your calendar app.' })
    } catch {
      selectLink()
      toast({
        title: 'Copy the selected link',
        description: 'Your browser did not let us copy it: press Ctrl+C (⌘C on a Mac).',
      })
    }
  }

  const handleReset = () => {
    reset.mutate(undefined, {
      onSuccess: () =>
        toast({ title: 'Calendar link reset', description: 'The old link no longer works.' }),
      onError: (error) =>
        toast({
          title: 'Failed to reset calendar link',
          description: isApiError(error) ? error.message : undefined,
          variant: 'destructive',
        }),
    })
  }

  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>calendar</CardTitle>
      <div className="grid gap-4">
        <div className="grid gap-2 text-sm">
          <p>
            Subscribe to your secret link from Google, Apple or Outlook calendar, and your upcoming
            podclubs show up there and stay up to date.
          </p>
          <p id={`${id}-warning`} className="text-ink-muted">
            Anyone with the link sees your upcoming podclubs, so keep it to yourself. If it got out,
            reset it: the old link stops working.
          </p>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-url`}>your calendar link</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              ref={inputRef}
              id={`${id}-url`}
              readOnly
              value={calendarUrl}
              aria-describedby={`${id}-warning`}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 font-mono sm:text-sm"
            />
            <div className="flex gap-2">
              <Button
                variant="outline"
                className="grow basis-0 sm:grow-0 sm:basis-auto"
                onClick={() => void handleCopy()}
              >
                <Copy aria-hidden />
                copy link
              </Button>
              <Button
                variant="outline"
                className="grow basis-0 sm:grow-0 sm:basis-auto"
                disabled={reset.isPending}
                aria-busy={reset.isPending || undefined}
                onClick={handleReset}
              >
                {reset.isPending ? <Spinner /> : <RefreshCw aria-hidden />}
                reset link
              </Button>
            </div>
          </div>
        </div>
        <ul aria-label="How to subscribe" className="grid gap-1 text-sm text-ink-muted">
          {HOW_TO.map(([app, steps]) => (
            <li key={app}>
              <span className="font-mono text-ink">{app}:</span> {steps}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  )
}
