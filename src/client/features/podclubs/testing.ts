import type { Podclub } from '#contract/podclubs'

let seq = 0
/** A podclub as the API would send it, for the page's tests. */
export function podclubFixture(overrides: Partial<Podclub> = {}): Podclub {
  seq += 1
  return {
    id: seq,
    status: 'upcoming',
    episode_title: `The Invention of Boredom, part ${seq}`,
    episode_number: '',
    description: 'Why an empty afternoon feels unbearable now, and what it used to be for.',
    podmeister_note: 'I have not stopped thinking about the part on waiting rooms.',
    podmeister: { username: 'host.one' },
    starts_at: '2027-03-02T00:00:00.000Z',
    pretty_date: 'Monday, March 1, 2027',
    pretty_time: '7:00 PM EST',
    location: null,
    seats_left: 9,
    keyword_one: 'attention',
    keyword_two: 'cities',
    keyword_three: '',
    link_one: 'https://www.youtube.com/watch?v=abc',
    link_two: 'https://www.example.org/show/boredom',
    link_three: 'not a url',
    podcast: { name: 'Hidden Brain', picture_link: '' },
    api_registered_usernames: { reserved: [] },
    waitlist_count: 0,
    seat_waitlist: { waiting: [] },
    ...overrides,
  }
}
