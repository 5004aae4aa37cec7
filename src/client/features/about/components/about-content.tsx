import { Link } from 'react-router'
import { CLUB_TIME_NAME } from '#contract/club-time-names'
import { QuoteRotator, type Quote } from './quote-rotator'

const TLDR = [
  {
    title: 'What',
    body: 'A book club for podcasts. One episode, one hour, up to nine members and a host we call the podmeister.',
  },
  {
    title: 'Why',
    body: 'Podcasts are made to be talked about, yet we listen alone with earbuds in. podclub turns that private hour into a conversation with people who heard the same thing.',
  },
  {
    title: 'Who',
    body: 'Curious people who listen a lot and would rather talk to humans than to comment sections. You join with an invite from a member.',
  },
  {
    title: 'Where',
    body: 'On Zoom, or in person in New York. More cities as soon as someone there offers to host.',
  },
  {
    title: 'When',
    body: `Whenever a member proposes one: podclubs are planned one to seven months ahead, at times in ${CLUB_TIME_NAME}.`,
  },
  {
    title: 'How much',
    body: 'Free. No ads, no premium tier, and nobody sells what you say or who you are.',
  },
] as const

export const QUOTES: readonly Quote[] = [
  {
    text: 'Most people do not listen with the intent to understand; they listen with the intent to reply.',
    author: 'Stephen R. Covey',
  },
  {
    text: 'The art of conversation is the art of hearing as well as of being heard.',
    author: 'William Hazlitt',
  },
  {
    text: 'Conversation is king. Content is just something to talk about.',
    author: 'Cory Doctorow',
  },
  {
    text: 'We have two ears and one mouth so that we can listen twice as much as we speak.',
    author: 'attributed to Epictetus',
  },
  {
    text: 'I like to listen. I have learned a great deal from listening carefully. Most people never listen.',
    author: 'Ernest Hemingway',
  },
]

const STEPS = [
  {
    title: 'Get in',
    body: 'Register with an invite code from a member, or join the waitlist and we will e-mail you one when a spot opens.',
  },
  {
    title: 'Pick a podclub',
    body: 'Browse the upcoming podclubs and reserve one of the nine seats. Plans changed? Cancel, and the seat goes to the next person.',
  },
  {
    title: 'Listen first',
    body: 'Listen to the episode before you come. We send reminders a week, a day and ten minutes ahead; the last one carries the Zoom link.',
  },
  {
    title: 'Talk it through',
    body: 'The podmeister opens with a question and keeps an eye on the time. You bring the moment that stuck with you, or the part you disagreed with.',
  },
  {
    title: 'Look back',
    body: 'Afterwards, post a short hindsight and read what the others took away. Every podclub you attend or host earns cred. Then propose your own.',
  },
] as const

const RULES = [
  {
    title: "Don't be a d*ck.",
    body: 'Disagree with ideas, never with people. Let others finish. No insults, no harassment, no exceptions.',
  },
  {
    title: 'Elevate the conversation.',
    body: 'Come having listened. Ask real questions, share the air, and leave the room a little smarter than you found it.',
  },
  {
    title: 'Invite your friends.',
    body: 'podclub grows through its members. Bring the people you would want at your own table.',
  },
] as const

const sectionTitle = 'font-mono text-xl font-semibold tracking-tight sm:text-2xl'

export function AboutContent({ contactEmail }: { contactEmail?: string }) {
  return (
    <div className="grid gap-14 sm:gap-16">
      <section aria-labelledby="about-hero" className="grid gap-4">
        <h2
          id="about-hero"
          className="font-mono text-3xl leading-tight font-bold tracking-tight text-balance sm:text-5xl"
        >
          podcasts are better <span className="text-accent">with people.</span>
        </h2>
        <p className="max-w-2xl text-lg text-ink-muted">
          You finished an episode that rearranged something in your head, and there was nobody to
          tell. podclub is where you tell them: small, scheduled conversations about one episode,
          with people who listened too.
        </p>
      </section>

      <section aria-labelledby="about-tldr" className="grid gap-5">
        <h2 id="about-tldr" className={sectionTitle}>
          tl;dr
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {TLDR.map((card) => (
            <li
              key={card.title}
              className="grid content-start gap-2 rounded-sm border border-line bg-paper-raised p-5"
            >
              <h3 className="font-mono font-semibold text-accent">{card.title}</h3>
              <p className="text-sm leading-relaxed">{card.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-label="Quotes about listening">
        <QuoteRotator quotes={QUOTES} />
      </section>

      <section aria-labelledby="about-how" className="grid gap-5">
        <h2 id="about-how" className={sectionTitle}>
          How does it work
        </h2>
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {STEPS.map((step, index) => (
            <li
              key={step.title}
              className="grid content-start gap-2 rounded-sm border border-line bg-paper-raised p-5"
            >
              <span aria-hidden className="font-mono text-3xl font-bold text-accent">
                {index + 1}
              </span>
              <h3 className="font-mono font-semibold">{step.title}</h3>
              <p className="text-sm leading-relaxed">{step.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="about-rules" className="grid gap-5">
        <h2 id="about-rules" className={sectionTitle}>
          The Rules of podclub
        </h2>
        <ol className="grid gap-3">
          {RULES.map((rule, index) => (
            <li key={rule.title} className="grid gap-1 border-l-4 border-accent pl-4">
              <h3 className="font-mono font-semibold">
                {index + 1}. {rule.title}
              </h3>
              <p className="text-sm leading-relaxed text-ink-muted">{rule.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="about-expert" className="grid gap-3 rounded-sm bg-accent-soft p-6">
        <h2 id="about-expert" className={sectionTitle}>
          I'm not an expert. Can I still come?
        </h2>
        <p className="max-w-2xl leading-relaxed">
          Yes. Nobody at podclub is an expert, and nobody is grading you. If you listened and
          something in it made you think, laugh or argue back, you have exactly what a podclub
          needs. Some of the best conversations start with “I didn't get this part.”
        </p>
      </section>

      <section aria-labelledby="about-contact" className="grid gap-3">
        <h2 id="about-contact" className={sectionTitle}>
          Say hello
        </h2>
        <p className="max-w-2xl leading-relaxed">
          Questions, a bug to report, or want to host podclub in another city? Write to{' '}
          {contactEmail ? (
            <a
              href={`mailto:${contactEmail}`}
              className="rounded-sm font-mono wrap-anywhere text-accent underline underline-offset-4 hover:text-accent-strong"
            >
              {contactEmail}
            </a>
          ) : (
            'us'
          )}
          . A person reads every message.
        </p>
        <p>
          <Link
            to="/waitlist"
            className="rounded-sm font-mono text-sm text-accent underline underline-offset-4 hover:text-accent-strong"
          >
            no invite yet? join the waitlist
          </Link>
        </p>
      </section>
    </div>
  )
}
