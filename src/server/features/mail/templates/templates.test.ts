import { describe, expect, it } from 'vitest'
import {
  appLink,
  emailConfirmationMail,
  escapeHtml,
  passwordResetMail,
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

  it('points the welcome mail at the feed without the splash', () => {
    const { text } = welcomeMail({ appUrl: `${APP}/`, username: 'ada', confirmUrl: 'x' })
    expect(text).toContain(`${APP}/home?skipSplash=true`)
  })

  it('joins APP_URL and a path with exactly one slash', () => {
    expect(appLink('http://a.test', '/x')).toBe('http://a.test/x')
    expect(appLink('http://a.test/', 'x')).toBe('http://a.test/x')
    expect(appLink('http://a.test/club//', '//x')).toBe('http://a.test/club/x')
    expect(escapeHtml(`'`)).toBe('&#39;')
  })
})
