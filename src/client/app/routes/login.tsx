import { useNavigate, useSearchParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { LoginForm } from '#client/features/auth/components/login-form'
import { NEXT_PARAM, safeNextPath } from '#client/lib/login-path'

export default function LoginRoute() {
  const navigate = useNavigate()
  const [search] = useSearchParams()
  // Back to the page that sent the member here (`?next=`), when it is one of this site's.
  const next = safeNextPath(search.get(NEXT_PARAM)) ?? '/home'
  return (
    <ContentLayout title="login">
      <LoginForm onSuccess={() => void navigate(next)} />
    </ContentLayout>
  )
}
