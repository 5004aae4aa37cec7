import { ContentLayout } from '#client/components/layouts/content-layout'

export default function ForgotPasswordRoute() {
  return <ContentLayout title="forgot password" />
}
