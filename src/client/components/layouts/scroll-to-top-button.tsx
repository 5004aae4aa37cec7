import { useEffect, useState } from 'react'
import { Button } from '#client/components/ui/button'
import { scrollBehavior, scrollToTop } from '#client/lib/scroll'
import { ArrowUpIcon } from '#client/components/ui/shell-icons'

/** Spec 2 §9: the button shows once the page is scrolled more than this. */
export const SCROLL_TO_TOP_THRESHOLD_PX = 500

export function ScrollToTopButton() {
  const [isVisible, setIsVisible] = useState(false)

  useEffect(() => {
    const update = () => setIsVisible(window.scrollY > SCROLL_TO_TOP_THRESHOLD_PX)
    update()
    window.addEventListener('scroll', update, { passive: true })
    return () => window.removeEventListener('scroll', update)
  }, [])

  if (!isVisible) return null
  return (
    <Button
      type="button"
      variant="outline"
      size="icon"
      shape="round"
      aria-label="Scroll to top"
      title="Scroll to top"
      onClick={() => scrollToTop(scrollBehavior())}
      className="fixed right-4 bottom-4 z-40 shadow-md"
    >
      <ArrowUpIcon aria-hidden />
    </Button>
  )
}
