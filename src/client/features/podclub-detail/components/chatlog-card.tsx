import { useMemo } from 'react'
import { Card, CardTitle } from '#client/components/ui/card'
import { LinkifiedText } from '#client/components/ui/linkified-text'
import { cn } from '#client/lib/cn'
import { parseChatlog } from '../lib/parse-chatlog'

/** The Zoom chat of a completed podclub: 300 px tall with entries, 70 px without (spec 2 §9). */
export function ChatlogCard({ chatlog }: { chatlog: string }) {
  const entries = useMemo(() => parseChatlog(chatlog), [chatlog])
  return (
    <Card aria-labelledby="chatlog-title">
      <CardTitle id="chatlog-title">zoom chat log</CardTitle>
      <div
        // Scrollable content must be reachable from the keyboard.
        tabIndex={0}
        role="region"
        aria-label="zoom chat log entries"
        className={cn(
          'overflow-y-auto rounded-sm border border-line bg-paper p-3',
          entries.length > 0 ? 'h-[300px]' : 'h-[70px]',
        )}
      >
        {entries.length === 0 ? (
          <p className="text-sm text-ink-muted">no chat messages for this podclub.</p>
        ) : (
          <ol className="grid gap-3">
            {entries.map((entry, i) => (
              <li key={i} className="text-sm">
                <p className="font-mono text-xs text-ink-muted">
                  {entry.time ? <time>{entry.time}</time> : null}
                  {entry.sender ? (
                    <span className="ml-2 font-semibold text-ink">{entry.sender}</span>
                  ) : null}
                </p>
                <p className="whitespace-pre-line">
                  <LinkifiedText text={entry.message} />
                </p>
              </li>
            ))}
          </ol>
        )}
      </div>
    </Card>
  )
}
