import { create } from 'qrcode'
import { useMemo } from 'react'

/** Spec 2 §9: the invite QR is 200×200, error correction Q. */
export const INVITE_QR_SIZE = 200
const QUIET_ZONE = 2
const DOT_COLOUR = '#1d4a36'
const CORNER_COLOUR = '#000000'

type Cell = { x: number; y: number }

/** The three 7×7 finder patterns in the corners, drawn as squares instead of dots. */
function isFinder(x: number, y: number, count: number) {
  const inBox = (left: number, top: number) => x >= left && x < left + 7 && y >= top && y < top + 7
  return inBox(0, 0) || inBox(count - 7, 0) || inBox(0, count - 7)
}

/**
 * Draws the QR code of `value` as SVG: dark green round dots, black square corner markers, a
 * white background with a quiet zone so phone cameras find the edges.
 */
export function InviteQrCode({ value, label }: { value: string; label: string }) {
  const { count, dots } = useMemo(() => {
    const qr = create(value, { errorCorrectionLevel: 'Q' })
    const n = qr.modules.size
    const cells: Cell[] = []
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        if (qr.modules.get(y, x) && !isFinder(x, y, n)) cells.push({ x, y })
      }
    }
    return { count: n, dots: cells }
  }, [value])
  const extent = count + QUIET_ZONE * 2
  const corners = [
    [0, 0],
    [count - 7, 0],
    [0, count - 7],
  ] as const

  return (
    <svg
      role="img"
      aria-label={label}
      width={INVITE_QR_SIZE}
      height={INVITE_QR_SIZE}
      viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${extent} ${extent}`}
      shapeRendering="geometricPrecision"
      className="block"
    >
      <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={extent} height={extent} fill="#ffffff" />
      {corners.map(([x, y]) => (
        <g key={`${x}-${y}`} fill={CORNER_COLOUR}>
          <path d={`M${x} ${y}h7v7h-7z M${x + 1} ${y + 1}v5h5v-5z`} fillRule="evenodd" />
          <rect x={x + 2} y={y + 2} width={3} height={3} />
        </g>
      ))}
      <g fill={DOT_COLOUR}>
        {dots.map(({ x, y }) => (
          <circle key={`${x}-${y}`} cx={x + 0.5} cy={y + 0.5} r={0.45} />
        ))}
      </g>
    </svg>
  )
}
