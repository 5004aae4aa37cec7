import { NotFoundPage } from '#client/components/errors/not-found-page'

export default function NotFoundRoute() {
  return <NotFoundPage />
}
