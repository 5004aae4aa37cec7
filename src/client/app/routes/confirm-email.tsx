import { Link, useParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { Spinner } from '#client/components/ui/spinner'
import { useConfirmEmail } from '#client/features/auth/api/confirm-email'

const linkClass =
  'rounded-sm font-mono text-accent underline underline-offset-4 hover:text-accent-strong'

/** Where the link of the welcome and confirmation e-mails lands. */
export default function ConfirmEmailRoute() {
  const { uid = '', token = '' } = useParams()
  const confirm = useConfirmEmail(uid, token)
  return (
    <ContentLayout title="confirm e-mail">
      {confirm.isPending ? (
        <p role="status" className="flex items-center gap-2 font-mono text-sm text-ink-muted">
          <Spinner /> confirming your address…
        </p>
      ) : confirm.isError ? (
        <div className="grid gap-3">
          <p role="alert" className="font-mono text-danger">
            {confirm.error.message}
          </p>
          <p className="text-sm text-ink-muted">
            Nothing is blocked meanwhile: you can use podclub while your address is unconfirmed.
          </p>
        </div>
      ) : (
        <div role="status" className="grid gap-3">
          <p>Your e-mail address is confirmed. Thank you!</p>
          <p>
            <Link to="/home" className={linkClass}>
              go to the podclubs
            </Link>
          </p>
        </div>
      )}
    </ContentLayout>
  )
}
