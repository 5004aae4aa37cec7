import { ContentLayout } from '#client/components/layouts/content-layout'

export default function PasswordResetRoute() {
  return <ContentLayout title="reset password" />
}
