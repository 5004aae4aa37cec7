import { useNavigate } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { WaitlistForm } from '#client/features/waitlist/components/waitlist-form'

export default function WaitlistRoute() {
  const navigate = useNavigate()
  return (
    <ContentLayout title="waitlist">
      <p className="max-w-xl text-ink-muted">
        podclub grows by invitation, a few seats at a time. Leave your address and we will e-mail
        you an invite code as soon as a spot opens up.
      </p>
      <WaitlistForm onSuccess={() => void navigate('/')} />
    </ContentLayout>
  )
}
