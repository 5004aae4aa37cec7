/** An image only (spec 1 §2): a pause between podclubs. */
export function ThinkerCard() {
  return (
    <figure className="grid h-full place-items-center rounded-sm border border-line bg-paper-raised p-6">
      <img
        src="/thinker.svg"
        alt="A figure sitting with chin on hand, thinking, wearing headphones"
        width={200}
        height={240}
        className="h-auto w-40 max-w-full"
      />
    </figure>
  )
}
