import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { PodclubDetail } from '#contract/podclub-detail'
import { AttendeesCard, PodclubDetailsCard, PodclubHeader } from './podclub-details'

function detail(overrides: Partial<PodclubDetail> = {}): PodclubDetail {
  return {
    id: 12,
    status: 'upcoming',
    episode_title: 'The Cathedral',
    episode_number: '',
    description: 'A talk.',
    podmeister_note: '',
    podmeister: { username: 'maya.r', profile: { cred: 4 } },
    starts_at: '2027-03-02T00:00:00.000Z',
    pretty_date: 'Monday, March 1, 2027',
    pretty_time: '7:00 PM EST',
    location: 'zoom',
    seats_left: 0,
    keyword_one: '',
    keyword_two: '',
    keyword_three: '',
    link_one: '',
    link_two: '',
    link_three: '',
    podcast: { name: 'Radiolab', picture_link: '' },
    api_registered_usernames: { reserved: [] },
    waitlist_count: 0,
    seat_waitlist: { waiting: [] },
    links: [],
    ...overrides,
  }
}

function details() {
  return screen.getByRole('region', { name: 'details' })
}

describe('the podclub details card', () => {
  it("links an upcoming podclub's calendar file for download", () => {
    render(<PodclubDetailsCard podclub={detail()} />)
    const link = within(details()).getByRole('link', { name: 'add to calendar' })
    expect(link).toHaveAttribute('href', '/api/v1/podclubs/12/calendar/')
    expect(link).toHaveAttribute('download', 'podclub-12.ics')
  })

  it('offers no calendar file once the podclub is over', () => {
    render(<PodclubDetailsCard podclub={detail({ status: 'completed' })} />)
    expect(within(details()).queryByRole('link', { name: 'add to calendar' })).toBeNull()
  })

  it('shows who attended a completed podclub instead of its seats left', () => {
    const done = detail({
      status: 'completed',
      seats_left: 7,
      api_registered_usernames: {
        reserved: [
          { username: 'jon.b', cred: 2 },
          { username: 'priya', cred: 1 },
        ],
      },
    })
    render(
      <>
        <PodclubDetailsCard podclub={done} />
        <AttendeesCard podclub={done} />
      </>,
    )
    expect(within(details()).queryByText('seats available')).toBeNull()
    expect(within(details()).queryByText('7 seats left')).toBeNull()
    const term = within(details()).getByText('attended')
    expect(term.nextElementSibling).toHaveTextContent('maya.r (podmeister), jon.b and priya')
    expect(screen.getByRole('heading', { name: '3 member(s) attended' })).toBeVisible()
  })

  it('shows how many wait on the seat waitlist, only when someone does', () => {
    const { unmount } = render(<PodclubDetailsCard podclub={detail()} />)
    expect(within(details()).queryByText('seat waitlist')).toBeNull()
    unmount()
    render(
      <PodclubDetailsCard
        podclub={detail({ waitlist_count: 3, seat_waitlist: { waiting: ['a', 'b', 'c'] } })}
      />,
    )
    const term = within(details()).getByText('seat waitlist')
    expect(term.tagName).toBe('DT')
    expect(term.nextElementSibling).toHaveTextContent('3 waiting for a freed seat')
  })
})

describe('the podclub header', () => {
  it("shows the podcast's cover, or its initial when it has none", () => {
    const withCover = detail({
      podcast: { name: 'Radiolab', picture_link: 'https://img.example/r.png' },
    })
    const { unmount } = render(<PodclubHeader podclub={withCover} />)
    expect(screen.getByRole('img', { name: 'Radiolab cover' })).toHaveAttribute(
      'src',
      'https://img.example/r.png',
    )
    unmount()
    const { container } = render(
      <PodclubHeader podclub={detail({ podcast: { name: 'Radiolab', picture_link: '' } })} />,
    )
    expect(screen.queryByRole('img')).toBeNull()
    expect(container.querySelector('[aria-hidden]')).toHaveTextContent(/^R$/)
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument()
  })
})
