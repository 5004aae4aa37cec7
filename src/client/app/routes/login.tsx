import { useNavigate } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { LoginForm } from '#client/features/auth/components/login-form'

export default function LoginRoute() {
  const navigate = useNavigate()
  return (
    <ContentLayout title="login">
      <LoginForm onSuccess={() => void navigate('/home')} />
    </ContentLayout>
  )
}
