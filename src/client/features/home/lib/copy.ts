/** The join card's taglines (spec 1 §2: eight of them, one picked at random). */
export const TAGLINES = [
  'no bots. no ai. no bs.',
  'nine seats. one episode. real talk.',
  'your podcast queue deserves company.',
  'finally, someone else who heard it.',
  'headphones off. conversation on.',
  'a book club, but you can listen on the train.',
  'come for the episode, stay for the tangents.',
  'hot takes welcome. homework optional.',
] as const

export type Testimonial = { quote: string; author: string }

/** Six fixed quotes, each by a short username (spec 1 §2, Testimonial card). */
export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      'I had listened to that episode twice and still learned more in an hour with eight strangers.',
    author: 'maya.r',
  },
  {
    quote: 'The only group chat I never mute. Except it is a real conversation, with faces.',
    author: 'dev.k',
  },
  {
    quote: 'I came for a history podcast and left with three new friends and a reading list.',
    author: 'ines',
  },
  {
    quote:
      'Our podmeister asked one question and the next forty minutes flew. I think about it weekly.',
    author: 'tomas.b',
  },
  {
    quote: 'Nine seats keeps it small enough that everyone talks, even the quiet ones like me.',
    author: 'priya',
  },
  {
    quote: 'I used to shout at my phone during episodes. Now I bring it to podclub instead.',
    author: 'sam.o',
  },
]

/** The splash's tagline, split where small screens break it (spec 1 §2, Splash). */
export const SPLASH_TAGLINE = ['a book club for podcasts.', 'no bots. no ai. no bs.'] as const
export const WORDMARK = 'podclub'
