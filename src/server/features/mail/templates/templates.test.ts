import { describe, expect, it } from 'vitest'
import {
  emailConfirmationMail,
  escapeHtml,
  passwordResetMail,
  renderMail,
  type RenderedMail,
  signupAttemptMail,
  welcomeMail,
} from './index'

const APP = 'https://podclub.example'

/** The href values of the HTML part. */
const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!)

const templates: [string, RenderedMail, string][] = [
  [
    'welcome',
    welcomeMail({ appUrl: APP, username: 'ada', confirmUrl: `${APP}/confirm-email/1/tok` }),
    `${APP}/confirm-email/1/tok`,
  ],
  [
    'password reset',
    passwordResetMail({ username: 'ada', resetUrl: `${APP}/password-reset/abc.def` }),
    `${APP}/password-reset/abc.def`,
  ],
  ['sign-up attempt', signupAttemptMail({ appUrl: APP, username: 'ada' }), `${APP}/login`],
  [
    'e-mail confirmation',
    emailConfirmationMail({ username: 'ada', confirmUrl: `${APP}/confirm-email/1/tok` }),
    `${APP}/confirm-email/1/tok`,
  ],
]

describe('e-mail templates', () => {
  it.each(templates)('%s has a text part and an HTML part with the club name', (_, mail) => {
    expect(mail.subject).toMatch(/podclub/)
    expect(mail.text).toContain('podclub')
    expect(mail.html).toMatch(/^<!doctype html>/)
    expect(mail.html).toContain('podclub<span')
    expect(mail.text).not.toMatch(/<[a-z]/i)
    expect(mail.text).toContain('Hi ada,')
    expect(mail.html).toContain('Hi ada,')
  })

  it.each(templates)('%s links to the absolute address in both parts', (_, mail, link) => {
    expect(mail.text).toContain(link)
    expect(hrefsOf(mail.html)).toContain(link)
    for (const href of hrefsOf(mail.html)) expect(href).toMatch(/^https:\/\//)
  })

  it('escapes what people typed in the HTML part, not in the text part', () => {
    const mail = passwordResetMail({
      username: '<b>x</b>&"',
      resetUrl: `${APP}/password-reset/a"b`,
    })
    expect(mail.html).toContain('Hi &lt;b&gt;x&lt;/b&gt;&amp;&quot;,')
    expect(mail.html).not.toContain('<b>x</b>')
    expect(hrefsOf(mail.html)).toContain(`${APP}/password-reset/a&quot;b`)
    expect(mail.text).toContain('Hi <b>x</b>&",')
  })

  it('says how long a reset link lasts and that it ends other sessions', () => {
    const { text } = passwordResetMail({ username: 'ada', resetUrl: `${APP}/password-reset/t` })
    expect(text).toContain('for 60 minutes')
    expect(text).toContain('logs you out everywhere else')
  })

  it('points the welcome mail at the feed without the splash, linked in both parts', () => {
    const { text, html } = welcomeMail({ appUrl: APP, username: 'ada', confirmUrl: 'x' })
    expect(text).toContain(`Pick a podclub to join: ${APP}/home?skipSplash=true`)
    expect(hrefsOf(html)).toContain(`${APP}/home?skipSplash=true`)
  })

  it('escapes every character that could start markup', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    )
  })
})

describe('the frame', () => {
  const mail = renderMail({
    subject: 'A <test>',
    intro: [
      ['Join on Zoom: ', { url: `${APP}/z?a=1&b=2` }],
      { list: [['"<i>One</i>" (Pod)', 'Monday', [{ url: `${APP}/podclubs/1` }]], ['Two']] },
      'Their note:',
      { quote: 'line one\n<b>line two</b>' },
    ],
    outro: ['After.'],
    footer: [['Leave? ', { label: 'Unsubscribe', url: `${APP}/unsubscribe/1/t` }], '(Small.)'],
  })

  it('writes a link as its URL in text and as a link in HTML, escaped once', () => {
    expect(mail.text).toContain(`Join on Zoom: ${APP}/z?a=1&b=2`)
    expect(mail.html).toContain(
      `Join on Zoom: <a href="${APP}/z?a=1&amp;b=2">${APP}/z?a=1&amp;b=2</a>`,
    )
  })

  it('writes a list as dashes in text and as list items in HTML', () => {
    expect(mail.text).toContain(`- "<i>One</i>" (Pod)\n  Monday\n  ${APP}/podclubs/1\n\n- Two`)
    expect(mail.html).toMatch(
      /<ul[^>]*>\n<li[^>]*>&quot;&lt;i&gt;One&lt;\/i&gt;&quot; \(Pod\)<br>Monday<br><a href="https:\/\/podclub\.example\/podclubs\/1">/,
    )
    expect(mail.html).not.toContain('<i>One</i>')
  })

  it('quotes a note as typed, line breaks kept, escaped in HTML', () => {
    expect(mail.text).toContain('Their note:\n\n"line one\n<b>line two</b>"')
    expect(mail.html).toMatch(
      /<blockquote[^>]*white-space:pre-wrap[^>]*>line one\n&lt;b&gt;line two/,
    )
  })

  it('puts the small print under the motto, a labelled link written out in text', () => {
    expect(mail.text).toMatch(
      new RegExp(`no bs\\.\\n\\nLeave\\? Unsubscribe: ${APP}/unsubscribe/1/t\\n\\(Small\\.\\)\\n$`),
    )
    expect(mail.html).toContain(
      `Leave? <a href="${APP}/unsubscribe/1/t">Unsubscribe</a><br>(Small.)`,
    )
    expect(mail.html.indexOf('Unsubscribe</a>')).toBeGreaterThan(mail.html.indexOf('no bs.'))
  })

  it('leaves the greeting out when there is none to give', () => {
    expect(mail.text.startsWith('Join on Zoom:')).toBe(true)
    expect(mail.html).toContain('<title>A &lt;test&gt;</title>')
  })
})
