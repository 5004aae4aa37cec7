import { describe, expect, it } from 'vitest'
import { podclubFixture } from '../testing'
import { seatLabel, shareToXUrl } from './share'

describe('seatLabel', () => {
  it('says no seats, one seat, or how many', () => {
    expect(seatLabel(0)).toBe('No seats left')
    expect(seatLabel(1)).toBe('1 seat left')
    expect(seatLabel(2)).toBe('2 seats left')
    expect(seatLabel(9)).toBe('9 seats left')
  })
})

describe('shareToXUrl', () => {
  it('opens the X post intent with the episode, podcast, date, club code and podclub URL', () => {
    const podclub = podclubFixture({ id: 42, episode_title: 'Cities & Trees' })
    const url = new URL(shareToXUrl(podclub, 'club-Xy12', 'https://podclub.example'))
    expect(url.origin + url.pathname).toBe('https://x.com/intent/post')
    const text = url.searchParams.get('text')!
    expect(text).toContain('"Cities & Trees"')
    expect(text).toContain('Hidden Brain')
    expect(text).toContain('Monday, March 1, 2027')
    expect(text).toContain('club-Xy12')
    expect(url.searchParams.get('url')).toBe('https://podclub.example/podclubs/42')
  })
})
