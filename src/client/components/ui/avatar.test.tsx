import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Avatar, avatarColourOf, initialsOf } from './avatar'

describe('avatar', () => {
  it.each([
    ['ada.lovelace', 'AL'],
    ['grace', 'GR'],
    ['j', 'J'],
    ['mary_ann.evans', 'MA'],
    ['...', '?'],
    ['élodie', 'ÉL'],
  ])('draws %s as %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials)
  })

  it('gives a name the same colour every time, and names different colours', () => {
    expect(avatarColourOf('ada.lovelace')).toBe(avatarColourOf('ada.lovelace'))
    const colours = new Set(
      ['ada', 'grace', 'alan', 'edsger', 'barbara', 'ken'].map(avatarColourOf),
    )
    expect(colours.size).toBeGreaterThan(1)
  })

  it('is decorative beside a visible name, an image when labelled', () => {
    const { container } = render(<Avatar name="grace" />)
    expect(container.firstChild).toHaveAttribute('aria-hidden', 'true')
    render(<Avatar name="grace" label="grace" />)
    expect(screen.getByRole('img', { name: 'grace' })).toHaveTextContent('GR')
  })
})
