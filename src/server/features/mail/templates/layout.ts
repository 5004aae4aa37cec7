import { escapeHtml } from '#contract/html'

/** Text from people never becomes markup in the HTML part. */
export { escapeHtml }

/**
 * The frame every podclub e-mail shares: a plain-text part and an HTML part saying the same
 * thing, the club's name at the top and its motto at the bottom. Templates give paragraphs (with
 * links in them), lists, quotes and at most one button-like link; the frame writes both parts
 * and escapes every text it is given. Nothing here reads the database.
 */

export const CLUB_NAME = 'podclub'
const MOTTO = 'no bots. no ai. no bs.'

export type RenderedMail = { subject: string; text: string; html: string }

/**
 * A link inside a line. The text part writes `label: url` (the bare URL without a label), the
 * HTML part links the label (the URL without one).
 */
export type MailLink = { url: string; label?: string }
/** One line of text, plain or with links in it: `['Join on Zoom: ', { url }]`. */
export type MailLine = string | readonly (string | MailLink)[]
/**
 * A paragraph; a list whose items are one or more lines each; or a note quoted as its writer
 * typed it, line breaks kept.
 */
export type MailBlock = MailLine | { list: readonly (readonly MailLine[])[] } | { quote: string }

export type MailContent = {
  subject: string
  /** The first line, such as `Hi ada.lovelace,`. */
  greeting?: string
  /** What comes before the link. */
  intro: readonly MailBlock[]
  /** The one thing to click; shown as a button in HTML and as the bare URL in text. */
  action?: { label: string; url: string }
  /** What comes after the link. */
  outro?: readonly MailBlock[]
  /** Small print under the motto, one line each, such as how to unsubscribe. */
  footer?: readonly MailLine[]
}

const INK = 'color:#161614'
const MUTED = 'color:#56554f'
const ACCENT = 'color:#1d4a36'
const MONO = 'font-family:ui-monospace,Menlo,Consolas,monospace'

const partsOf = (line: MailLine) => (typeof line === 'string' ? [line] : line)
const isLine = (block: MailBlock): block is MailLine =>
  typeof block === 'string' || Array.isArray(block)

function lineText(line: MailLine): string {
  return partsOf(line)
    .map((part) =>
      typeof part === 'string' ? part : part.label ? `${part.label}: ${part.url}` : part.url,
    )
    .join('')
}

function lineHtml(line: MailLine): string {
  return partsOf(line)
    .map((part) =>
      typeof part === 'string'
        ? escapeHtml(part)
        : `<a href="${escapeHtml(part.url)}">${escapeHtml(part.label ?? part.url)}</a>`,
    )
    .join('')
}

function blockText(block: MailBlock): string {
  if (isLine(block)) return lineText(block)
  if ('quote' in block) return `"${block.quote}"`
  return block.list
    .map((item) => item.map((line, i) => `${i === 0 ? '- ' : '  '}${lineText(line)}`).join('\n'))
    .join('\n\n')
}

function blockHtml(block: MailBlock): string {
  if (isLine(block))
    return `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;${INK}">${lineHtml(block)}</p>`
  if ('quote' in block)
    return `<blockquote style="margin:0 0 16px;padding:0 0 0 12px;border-left:3px solid #d6d4cb;font-size:16px;line-height:1.5;${INK};white-space:pre-wrap">${escapeHtml(block.quote)}</blockquote>`
  const items = block.list
    .map((item) => `<li style="margin:0 0 12px">${item.map(lineHtml).join('<br>')}</li>`)
    .join('\n')
  return `<ul style="margin:0 0 16px;padding:0 0 0 20px;font-size:16px;line-height:1.5;${INK}">\n${items}\n</ul>`
}

export function renderMail(content: MailContent): RenderedMail {
  const opening = content.greeting ? [content.greeting] : []
  const outro = content.outro ?? []
  const footer = content.footer ?? []
  const text = [
    ...opening,
    ...content.intro.map(blockText),
    ...(content.action ? [`${content.action.label}:\n${content.action.url}`] : []),
    ...outro.map(blockText),
    `${CLUB_NAME}\n${MOTTO}`,
    ...(footer.length > 0 ? [footer.map(lineText).join('\n')] : []),
  ].join('\n\n')

  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;background:#1d4a36;color:#f8f7f2;text-decoration:none;${MONO};font-size:14px;border-radius:2px">[ ${escapeHtml(content.action.label)} ]</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;${MUTED}">If the button does not work, paste this address into your browser:<br><a href="${escapeHtml(content.action.url)}" style="${ACCENT};word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : ''
  const smallPrint =
    footer.length > 0
      ? `<p style="margin:16px 0 0;font-size:12px;line-height:1.5;${MUTED}">${footer.map(lineHtml).join('<br>')}</p>`
      : ''
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f8f7f2">
<div style="max-width:560px;margin:0 auto;padding:32px 20px;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<p style="margin:0 0 24px;${MONO};font-size:20px;font-weight:bold;${INK}">${CLUB_NAME}<span style="${ACCENT}">.</span></p>
${[...opening, ...content.intro].map(blockHtml).join('\n')}
${action}
${outro.map(blockHtml).join('\n')}
<p style="margin:32px 0 0;${MONO};font-size:12px;letter-spacing:0.1em;${MUTED}">${CLUB_NAME} · ${MOTTO}</p>
${smallPrint}
</div>
</body>
</html>
`
  return { subject: content.subject, text: `${text}\n`, html }
}
