import { ContentLayout } from '#client/components/layouts/content-layout'
import { Spinner } from '#client/components/ui/spinner'
import { usePublicConfig } from '#client/features/config/api/get-public-config'
import { InviteQrCode } from '#client/features/qr-invite/components/invite-qr-code'

export default function QrInviteRoute() {
  const config = usePublicConfig()
  return (
    <ContentLayout title="welcome to the club!" className="justify-items-center text-center">
      <p className="max-w-md text-ink-muted">
        Hold this up to a friend's phone camera. The code opens podclub's sign-up page with the
        club's invite code already filled in.
      </p>
      {config.isPending ? (
        <p role="status" className="flex items-center gap-2 font-mono text-sm text-ink-muted">
          <Spinner /> loading the invite…
        </p>
      ) : config.isError ? (
        <p role="alert" className="font-mono text-danger">
          {config.error.message}
        </p>
      ) : (
        <>
          <div className="rounded-sm border border-line bg-white p-3 shadow-sm">
            <InviteQrCode
              value={config.data.invite_link}
              label={`QR code of the invite link ${config.data.invite_link}`}
            />
          </div>
          <p className="grid gap-1">
            <span className="text-sm text-ink-muted">Can't scan it? Share the link:</span>
            <a
              href={config.data.invite_link}
              className="rounded-sm font-mono wrap-anywhere text-accent underline underline-offset-4 hover:text-accent-strong"
            >
              {config.data.invite_link}
            </a>
          </p>
        </>
      )}
    </ContentLayout>
  )
}
