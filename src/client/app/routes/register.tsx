import { ContentLayout } from '#client/components/layouts/content-layout'

export default function RegisterRoute() {
  return <ContentLayout title="register" />
}
