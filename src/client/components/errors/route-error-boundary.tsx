import type { ReactNode } from 'react'
import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { Button } from '#client/components/ui/button'
import { DocumentTitle, pageTitle } from '#client/components/ui/document-title'
import { isApiError } from '#client/lib/api-client'
import { NotFoundPage } from './not-found-page'

export const ROUTE_ERROR_TITLE = 'Something went wrong'

// Only messages meant for people are shown; a programming error's text stays in the console.
function messageOf(error: unknown) {
  if (isApiError(error)) return error.message
  if (isRouteErrorResponse(error)) return error.statusText || `Error ${error.status}`
  return 'This part of the page failed to load. Please try again.'
}

/** Title, message and the two ways out; `home` differs by whether the router still works. */
function ErrorContent({ error, home }: { error: unknown; home: ReactNode }) {
  return (
    <>
      <h1 className="font-mono text-2xl font-semibold tracking-tight">{ROUTE_ERROR_TITLE}</h1>
      <p className="text-ink-muted">{messageOf(error)}</p>
      <div className="flex flex-wrap gap-3">
        {/* A reload also picks up a new deploy when an old screen chunk no longer exists. */}
        <Button type="button" onClick={() => window.location.reload()}>
          [ try again ]
        </Button>
        <Button asChild variant="outline">
          {home}
        </Button>
      </div>
    </>
  )
}

/** An address that cannot be a page (the router's 404: '/podclubs/abc'). */
function isNotFound(error: unknown) {
  return isRouteErrorResponse(error) && error.status === 404
}

/**
 * Shown in place of one screen, inside the header and footer, when that screen breaks; or the
 * not-found page when what the screen shows does not exist.
 */
export function RouteErrorBoundary() {
  const error = useRouteError()
  if (isNotFound(error)) return <NotFoundPage />
  return (
    <div role="alert" className="grid max-w-prose gap-4">
      <ErrorContent error={error} home={<Link to="/home">Go Home</Link>} />
    </div>
  )
}

/** Last resort when the page shell itself breaks: no router links, just a reload. */
export function RootErrorBoundary() {
  const error = useRouteError()
  return (
    <main className="mx-auto grid min-h-dvh max-w-prose content-center gap-4 px-4">
      <DocumentTitle title={pageTitle(ROUTE_ERROR_TITLE)} />
      <ErrorContent error={error} home={<a href="/home">Go Home</a>} />
    </main>
  )
}
