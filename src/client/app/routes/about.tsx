import { ContentLayout } from '#client/components/layouts/content-layout'
import { AboutContent } from '#client/features/about/components/about-content'
import { usePublicConfig } from '#client/features/config/api/get-public-config'

export default function AboutRoute() {
  const config = usePublicConfig()
  return (
    <ContentLayout title="about">
      <AboutContent contactEmail={config.data?.contact_email} />
    </ContentLayout>
  )
}
