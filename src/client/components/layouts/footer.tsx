export function Footer() {
  return (
    <footer className="border-t border-line">
      <p className="mx-auto max-w-5xl px-4 py-6 text-center font-mono text-xs tracking-[0.2em] text-ink-muted">
        [ HUMANS TALKING WITH HUMANS ]
      </p>
    </footer>
  )
}
