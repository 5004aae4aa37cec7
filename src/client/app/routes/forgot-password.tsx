import { ContentLayout } from '#client/components/layouts/content-layout'
import { ForgotPasswordForm } from '#client/features/auth/components/forgot-password-form'

export default function ForgotPasswordRoute() {
  return (
    <ContentLayout title="forgot password">
      <ForgotPasswordForm />
    </ContentLayout>
  )
}
