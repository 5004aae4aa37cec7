import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LinkifiedText } from '#client/components/ui/linkified-text'
import { deriveLink, deriveLinks } from './links'
import { formatCount, splitTextParts, truncateWords } from './text'

describe('splitTextParts', () => {
  it.each([
    ['no links here', [{ type: 'text', value: 'no links here' }]],
    [
      'see https://example.com/a?b=1.',
      [
        { type: 'text', value: 'see ' },
        { type: 'url', value: 'https://example.com/a?b=1' },
        { type: 'text', value: '.' },
      ],
    ],
    [
      'http://a.test and (https://b.test/x)',
      [
        { type: 'url', value: 'http://a.test' },
        { type: 'text', value: ' and (' },
        { type: 'url', value: 'https://b.test/x' },
        { type: 'text', value: ')' },
      ],
    ],
    [
      'javascript:alert(1) ftp://x.test',
      [{ type: 'text', value: 'javascript:alert(1) ftp://x.test' }],
    ],
    ['', []],
  ])('%j', (text, parts) => {
    expect(splitTextParts(text)).toEqual(parts)
    expect(
      splitTextParts(text)
        .map((p) => p.value)
        .join(''),
    ).toBe(text)
  })
})

describe('truncateWords', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ')
  it('keeps a text of 30 words whole', () => {
    expect(truncateWords(words(30), 30)).toEqual({ text: words(30), truncated: false })
  })
  it('cuts the 31st word and marks it', () => {
    expect(truncateWords(words(31), 30)).toEqual({ text: `${words(30)}…`, truncated: true })
  })
  it('keeps line breaks inside the kept words', () => {
    expect(truncateWords('a\nb c d', 2)).toEqual({ text: 'a\nb…', truncated: true })
  })
})

describe('deriveLink', () => {
  it.each([
    ['https://www.youtube.com/watch?v=1', 'youtube', 'YouTube'],
    ['https://youtu.be/abc', 'youtube', 'YouTube'],
    ['https://open.spotify.com/episode/1', 'spotify', 'Spotify'],
    ['https://podcasts.apple.com/us/podcast/x', 'apple', 'Apple Podcasts'],
    ['https://www.radiolab.org/episodes/x', 'external', 'radiolab.org'],
    ['http://blog.example.com/post', 'external', 'blog.example.com'],
  ])('%s is a %s link labelled %s', (url, type, label) => {
    expect(deriveLink(url)).toMatchObject({ type, label })
  })
  it.each(['', 'not a url', 'javascript:alert(1)', 'ftp://files.test/x', 'https://'])(
    '%j gives no link',
    (url) => {
      expect(deriveLink(url)).toBeNull()
    },
  )
  it('keeps at most three valid links, in order', () => {
    const links = deriveLinks([
      'bad',
      'https://a.test',
      '',
      'https://b.test',
      'https://c.test',
      'https://d.test',
    ])
    expect(links.map((l) => l.label)).toEqual(['a.test', 'b.test', 'c.test'])
  })
})

describe('LinkifiedText', () => {
  it('makes only http(s) URLs links, opening safely in a new tab', () => {
    render(<LinkifiedText text="read https://example.com/x then javascript:alert(1)" />)
    const link = screen.getByRole('link', { name: 'https://example.com/x' })
    expect(link).toHaveAttribute('href', 'https://example.com/x')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    expect(link).toHaveAttribute('target', '_blank')
    expect(screen.getAllByRole('link')).toHaveLength(1)
  })
})

describe('formatCount', () => {
  it.each([0, 7, 999, 1000, 12345, 999999, 1234567, -1234, 2 ** 40])(
    'writes %d as en-US does',
    (count) => {
      expect(formatCount(count)).toBe(count.toLocaleString('en-US'))
    },
  )
})
