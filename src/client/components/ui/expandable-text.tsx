import { useId, useState } from 'react'
import { truncateWords } from '#client/lib/text'
import { LinkifiedText } from './linkified-text'

/**
 * User text cut to `words` words (30 on cards), with a Read more / Show less toggle when it is
 * longer; its http(s) URLs are links.
 */
export function ExpandableText({
  text,
  words = 30,
  className,
  quoted = false,
}: {
  text: string
  words?: number
  className?: string
  /** Wrap the text in quotation marks (the podmeister's note). */
  quoted?: boolean
}) {
  const [isExpanded, setIsExpanded] = useState(false)
  const id = useId()
  const cut = truncateWords(text, words)
  const shown = isExpanded ? text.trim() : cut.text
  const q = quoted ? ['\u201c', '\u201d'] : ['', '']
  return (
    <div className={className}>
      <p id={id} className="whitespace-pre-line">
        {q[0]}
        <LinkifiedText text={shown} />
        {q[1]}
      </p>
      {cut.truncated ? (
        <button
          type="button"
          aria-expanded={isExpanded}
          aria-controls={id}
          onClick={() => setIsExpanded((v) => !v)}
          className="mt-1 cursor-pointer font-mono text-xs text-accent underline underline-offset-4"
        >
          {isExpanded ? 'Show less' : 'Read more'}
        </button>
      ) : null}
    </div>
  )
}
