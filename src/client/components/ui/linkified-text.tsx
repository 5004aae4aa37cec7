import { splitTextParts } from '#client/lib/text'

/**
 * User text with its http(s) URLs as links that open in a new tab without handing the page to
 * the target. Anything else (javascript:, data:) stays text.
 */
export function LinkifiedText({ text }: { text: string }) {
  return (
    <>
      {splitTextParts(text).map((part, i) =>
        part.type === 'url' ? (
          <a
            key={i}
            href={part.value}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all underline underline-offset-2"
          >
            {part.value}
          </a>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </>
  )
}
