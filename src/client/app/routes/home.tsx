import { ContentLayout } from '#client/components/layouts/content-layout'

// '/' and '/home' both land here; the route loader already works out `skipSplash`
// (HomeLoaderData in app/router.tsx) for the splash to read once it exists.
export default function HomeRoute() {
  return <ContentLayout title="home" />
}
