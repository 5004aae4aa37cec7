import type { ReactNode } from 'react'
import { Footer } from './footer'
import { Header, type HeaderProps } from './header'
import { ScrollToTopButton } from './scroll-to-top-button'

/** The id the skip link and the route-change focus move to. */
export const MAIN_CONTENT_ID = 'main'

type AppLayoutProps = HeaderProps & {
  /** True while the next screen loads; shown as a thin bar and as aria-busy. */
  isNavigating?: boolean
  children: ReactNode
}

export function AppLayout({ children, isNavigating = false, ...headerProps }: AppLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only rounded-sm bg-accent px-3 py-2 font-mono text-sm text-on-accent focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[200]"
      >
        Skip to content
      </a>
      {isNavigating ? (
        <div aria-hidden className="fixed inset-x-0 top-0 z-[150] h-0.5 overflow-hidden">
          <div className="h-full w-2/5 animate-progress bg-accent motion-reduce:animate-none" />
        </div>
      ) : null}
      <Header {...headerProps} />
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        aria-busy={isNavigating || undefined}
        className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 outline-none sm:py-12"
      >
        {children}
      </main>
      <Footer />
      <ScrollToTopButton />
    </div>
  )
}
