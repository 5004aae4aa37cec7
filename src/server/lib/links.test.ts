import { describe, expect, it } from 'vitest'
import { parseEnv } from './env'
import { links } from './links'

describe('links', () => {
  it('builds every link under APP_URL with one slash, whatever slashes the setting ends with', () => {
    for (const APP_URL of [
      'https://club.example',
      'https://club.example/',
      'https://club.example//',
    ]) {
      const link = links(parseEnv({ APP_URL }))
      expect(link.home()).toBe('https://club.example/home?skipSplash=true')
      expect(link.podclub(12)).toBe('https://club.example/podclubs/12')
      expect(link.poll(3)).toBe('https://club.example/polls/3')
      expect(link.poll(3, 'abc')).toBe('https://club.example/polls/3/abc')
      expect(link.register('club-code')).toBe('https://club.example/register/club-code')
      expect(link.unsubscribe(7, 'tok')).toBe('https://club.example/unsubscribe/7/tok')
      expect(link.unsubscribeOneClick(7, 'tok')).toBe(
        'https://club.example/unsubscribe/one-click/7/tok',
      )
      expect(link.calendarFeed('tok')).toBe('https://club.example/calendar/tok.ics')
      expect(link.passwordReset('a.b')).toBe('https://club.example/password-reset/a.b')
      expect(link.confirmEmail(7, 'a.b')).toBe('https://club.example/confirm-email/7/a.b')
    }
  })

  it('keeps a path APP_URL has, and encodes what goes into a path segment', () => {
    const link = links(parseEnv({ APP_URL: 'https://example.org/club/' }))
    expect(link.podclub(1)).toBe('https://example.org/club/podclubs/1')
    expect(link.poll(1, 'a/b c')).toBe('https://example.org/club/polls/1/a%2Fb%20c')
    expect(link.register('x?y#z')).toBe('https://example.org/club/register/x%3Fy%23z')
  })
})
