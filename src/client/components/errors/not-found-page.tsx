import { Link } from 'react-router'
import { pages } from '#contract/pages'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { Button } from '#client/components/ui/button'

export const NOT_FOUND_TITLE = 'Page Not Found'

/**
 * Spec 2, Not-found page: 'Page Not Found' with a 'Go Home' link to /home. Shown for an unknown
 * address, and for one whose podclub or poll does not exist (a mistyped or an old link).
 */
export function NotFoundPage() {
  return (
    <ContentLayout title={NOT_FOUND_TITLE}>
      <div className="grid max-w-prose justify-items-start gap-4">
        <p>
          There is nothing at this address. The link may be mistyped or old, or what it pointed to
          is no longer here.
        </p>
        <p className="text-ink-muted">
          The home feed lists every podclub coming up; from there you can take a seat or propose one
          of your own.
        </p>
        <Button asChild>
          <Link to={pages.home.path}>Go Home</Link>
        </Button>
        <Link
          to={pages.about.path}
          className="rounded-sm font-mono text-sm text-accent underline underline-offset-4 hover:text-accent-strong"
        >
          what is podclub?
        </Link>
      </div>
    </ContentLayout>
  )
}
