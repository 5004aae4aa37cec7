/**
 * The frame every podclub e-mail shares: a plain-text part and an HTML part saying the same
 * thing, the club's name at the top and its motto at the bottom. Templates give paragraphs and
 * at most one button-like link; nothing here reads the database.
 */

export const CLUB_NAME = 'podclub'
const MOTTO = 'no bots. no ai. no bs.'

export type RenderedMail = { subject: string; text: string; html: string }

export type MailContent = {
  subject: string
  /** The first line, such as `Hi ada.lovelace,`. */
  greeting: string
  /** Paragraphs before the link. */
  intro: string[]
  /** The one thing to click; shown as a button in HTML and as the bare URL in text. */
  action?: { label: string; url: string }
  /** Paragraphs after the link. */
  outro?: string[]
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text from people (usernames, addresses) never becomes markup in the HTML part. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!)
}

export function renderMail(content: MailContent): RenderedMail {
  const outro = content.outro ?? []
  const text = [
    content.greeting,
    ...content.intro,
    ...(content.action ? [`${content.action.label}:\n${content.action.url}`] : []),
    ...outro,
    `${CLUB_NAME}\n${MOTTO}`,
  ].join('\n\n')

  const paragraph = (p: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#161614">${escapeHtml(p)}</p>`
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;background:#1d4a36;color:#f8f7f2;text-decoration:none;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px;border-radius:2px">[ ${escapeHtml(content.action.label)} ]</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#56554f">If the button does not work, paste this address into your browser:<br><a href="${escapeHtml(content.action.url)}" style="color:#1d4a36;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : ''
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f8f7f2">
<div style="max-width:560px;margin:0 auto;padding:32px 20px;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<p style="margin:0 0 24px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:20px;font-weight:bold;color:#161614">${CLUB_NAME}<span style="color:#1d4a36">.</span></p>
${[content.greeting, ...content.intro].map(paragraph).join('\n')}
${action}
${outro.map(paragraph).join('\n')}
<p style="margin:32px 0 0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;letter-spacing:0.1em;color:#56554f">${CLUB_NAME} · ${MOTTO}</p>
</div>
</body>
</html>
`
  return { subject: content.subject, text: `${text}\n`, html }
}
