import { useNavigate, useParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { ResetPasswordForm } from '#client/features/auth/components/reset-password-form'

export default function PasswordResetRoute() {
  const { token = '' } = useParams()
  const navigate = useNavigate()
  return (
    <ContentLayout title="reset password">
      <ResetPasswordForm key={token} token={token} onSuccess={() => void navigate('/login')} />
    </ContentLayout>
  )
}
