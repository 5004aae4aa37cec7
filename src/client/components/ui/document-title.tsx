import { createContext, useContext, useLayoutEffect } from 'react'

/** Where a page drawn on the server hands over its title, for the document's head. */
export type TitleSink = (title: string) => void

export const TitleSinkContext = createContext<TitleSink | null>(null)

/** `<screen> · podclub`: every title of the app reads so. */
export const pageTitle = (screen: string) => `${screen} · podclub`

/**
 * The browser tab's title while this is on screen. On the server it goes into the sink
 * (entry-server.tsx puts it in the head); in the browser it is set on the document. The last one
 * drawn wins, as the innermost screen's.
 */
export function DocumentTitle({ title }: { title: string }) {
  const toServerHead = useContext(TitleSinkContext)
  toServerHead?.(title)
  useLayoutEffect(() => {
    document.title = title
  }, [title])
  return null
}
