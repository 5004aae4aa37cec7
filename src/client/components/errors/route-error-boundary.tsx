import { useEffect, type ReactNode } from 'react'
import { isRouteErrorResponse, Link, useNavigate, useRouteError } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { Button } from '#client/components/ui/button'
import { isApiError } from '#client/lib/api-client'
import { pageTitle } from '#client/lib/page-title'
import { toast } from '#client/lib/toast'
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
  if (isRouteErrorResponse(error) && (error.status === 401 || error.status === 403)) {
    return <RefusedPage error={error} />
  }
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
      <title>{pageTitle(ROUTE_ERROR_TITLE)}</title>
      <ErrorContent error={error} home={<a href="/home">Go Home</a>} />
    </main>
  )
}

/** What a route says with a 401 or 403 answer: why, and where the viewer goes from here. */
export type Refusal = { description: string; to: string }

function refusalOf(data: unknown): Refusal | null {
  if (typeof data !== 'object' || data === null) return null
  const { description, to } = data as Partial<Refusal>
  return typeof description === 'string' && typeof to === 'string' ? { description, to } : null
}

/**
 * A page the viewer may not see yet (401: log in first) or at all (403: the completed-podclub
 * gate): what the server said, with the way on, so it reads the same without the page's code.
 * Once the page runs it says so in a toast and goes there, as the spec has it (spec 2 §4).
 */
function RefusedPage({ error }: { error: { status: number; statusText: string; data: unknown } }) {
  const navigate = useNavigate()
  const refusal = refusalOf(error.data) ?? { description: '', to: '/home' }
  const title = error.statusText || 'Not allowed'
  const needsLogin = error.status === 401
  useEffect(() => {
    toast({
      title,
      description: refusal.description || undefined,
      variant: needsLogin ? undefined : 'destructive',
    })
    void navigate(refusal.to, { replace: needsLogin })
  }, [title, refusal.description, refusal.to, needsLogin, navigate])
  return (
    <ContentLayout title={title}>
      <div className="grid max-w-prose justify-items-start gap-4">
        {refusal.description ? <p>{refusal.description}</p> : null}
        <Button asChild>
          <Link to={refusal.to}>{needsLogin ? '[ login ]' : 'Go Home'}</Link>
        </Button>
      </div>
    </ContentLayout>
  )
}
