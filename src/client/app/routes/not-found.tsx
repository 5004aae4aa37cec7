import { Link } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'

export default function NotFoundRoute() {
  return (
    <ContentLayout title="Page Not Found">
      <p>
        <Link
          to="/home"
          className="rounded-sm font-mono text-accent underline underline-offset-4 hover:text-accent-strong"
        >
          Go Home
        </Link>
      </p>
    </ContentLayout>
  )
}
