import { Link } from 'react-router'
import { unsubscribeBodySchema } from '#contract/control-panel'
import { Button } from '#client/components/ui/button'
import { Spinner } from '#client/components/ui/spinner'
import { useUnsubscribe } from '../api/unsubscribe'

const INVALID_LINK = 'This unsubscribe link is not valid.'

/** The page a blast links to: one button turns the monthly e-mails off. */
export function UnsubscribePanel({ uid, token }: { uid: string; token: string }) {
  const parsed = unsubscribeBodySchema.safeParse({ uid, token })
  const unsubscribe = useUnsubscribe()

  if (unsubscribe.isSuccess) {
    return (
      <div role="status" className="grid max-w-prose gap-3">
        <p className="font-mono text-lg">You are unsubscribed from the monthly e-mails.</p>
        <p className="text-ink-muted">
          Reminders for seats you hold still come: you will hear from us before each podclub you
          have reserved.
        </p>
        <Link to="/home" className="font-mono text-sm text-accent underline underline-offset-4">
          back to podclub
        </Link>
      </div>
    )
  }

  const error = !parsed.success ? INVALID_LINK : unsubscribe.error?.message

  return (
    <div className="grid max-w-prose justify-items-start gap-4">
      <p>
        Stop the monthly e-mails about upcoming podclubs? Reminders for seats you hold keep coming.
      </p>
      {parsed.success ? (
        <Button disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate(parsed.data)}>
          {unsubscribe.isPending ? <Spinner /> : null}
          Unsubscribe from monthly e-mails
        </Button>
      ) : null}
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
    </div>
  )
}
