import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AVATAR_COLOURS } from './avatar'
import { PodcastPicture, podcastInitialOf } from './podcast-picture'

/** WCAG's contrast ratio of two '#rrggbb' colours. */
function contrast(a: string, b: string) {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

const tileOf = (name: string) => {
  const { unmount } = render(<PodcastPicture name={name} src="" />)
  const tile = screen.getByTestId('podcast-tile')
  const drawn = { letter: tile.textContent, colour: tile.style.backgroundColor }
  unmount()
  return drawn
}

describe('podcast picture without artwork', () => {
  it.each([
    ['planet money', 'P'],
    ['Hidden Brain', 'H'],
    ['  radiolab', 'R'],
    ['"the daily"', 'T'],
    ['99% invisible', '9'],
    ['élan', 'É'],
    ['…', 'P'],
  ])('draws %s as the capital %s', (name, letter) => {
    expect(podcastInitialOf(name)).toBe(letter)
    expect(tileOf(name).letter).toBe(letter)
  })

  it('colours each podcast by its name, the same every time, and not all alike', () => {
    const names = ['Planet Money', 'Radiolab', 'Hidden Brain', 'Search Engine', 'The Daily']
    const colours = names.map((name) => tileOf(name).colour)
    expect(names.map((name) => tileOf(name).colour)).toEqual(colours)
    expect(tileOf('planet money').colour).toBe(tileOf('Planet Money').colour)
    expect(new Set(colours).size).toBeGreaterThan(2)
  })

  it('keeps the light letter at AA contrast on every tile colour', () => {
    // --color-on-accent in styles.css, the letter's colour.
    for (const colour of AVATAR_COLOURS) expect(contrast(colour, '#f8f7f2')).toBeGreaterThan(4.5)
  })

  it('shows the artwork when there is one, described only when asked', () => {
    render(<PodcastPicture name="Radiolab" src="https://example.com/radiolab.png" />)
    expect(screen.queryByTestId('podcast-tile')).toBeNull()
    expect(document.querySelector('img')).toHaveAttribute('src', 'https://example.com/radiolab.png')
  })
})
