import { ContentLayout } from '#client/components/layouts/content-layout'
import { Alert } from '#client/components/ui/alert'
import { Spinner } from '#client/components/ui/spinner'
import { useProfile } from '#client/features/profile/api/get-profile'
import { ProfileView } from '#client/features/profile/components/profile-view'

export default function ProfileRoute() {
  const profile = useProfile()
  return (
    <ContentLayout title="profile">
      {profile.data ? (
        <ProfileView profile={profile.data} />
      ) : profile.isError ? (
        <Alert title="Error">{profile.error.message || 'Unable to fetch user data'}</Alert>
      ) : (
        <div className="grid place-items-center py-16" aria-busy="true">
          <Spinner className="size-8 text-accent" />
          <span className="sr-only">loading profile…</span>
        </div>
      )}
    </ContentLayout>
  )
}
