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
 * Centres of the 5×5 alignment patterns of a QR version (ISO 18004 annex E, computed as the
 * qrcode library does). Scanners look for them as solid squares, so they are not drawn as dots.
 */
export function alignmentCentres(version: number): [number, number][] {
  if (version < 2) return []
  const size = version * 4 + 17
  const count = Math.floor(version / 7) + 2
  const step = size === 145 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2
  const coords = [size - 7]
  for (let i = 1; i < count - 1; i++) coords.push(coords[i - 1]! - step)
  coords.push(6)
  coords.reverse()
  const last = coords.length - 1
  const centres: [number, number][] = []
  coords.forEach((row, i) =>
    coords.forEach((col, j) => {
      // The three corners where a finder pattern sits have none.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return
      centres.push([col, row])
    }),
  )
  return centres
}

/**
 * Draws the QR code of `value` as SVG: dark green round dots, black square corner markers, a
 * white background with a quiet zone so phone cameras find the edges.
 */
export function InviteQrCode({ value, label }: { value: string; label: string }) {
  const { count, dots, alignments } = useMemo(() => {
    const qr = create(value, { errorCorrectionLevel: 'Q' })
    const n = qr.modules.size
    const centres = alignmentCentres(qr.version)
    const inAlignment = (x: number, y: number) =>
      centres.some(([cx, cy]) => Math.abs(x - cx) <= 2 && Math.abs(y - cy) <= 2)
    const cells: Cell[] = []
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        if (qr.modules.get(y, x) && !isFinder(x, y, n) && !inAlignment(x, y)) cells.push({ x, y })
      }
    }
    return { count: n, dots: cells, alignments: centres }
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
        {alignments.map(([cx, cy]) => (
          <g key={`a-${cx}-${cy}`}>
            <path
              d={`M${cx - 2} ${cy - 2}h5v5h-5z M${cx - 1} ${cy - 1}v3h3v-3z`}
              fillRule="evenodd"
            />
            <rect x={cx} y={cy} width={1} height={1} />
          </g>
        ))}
        {dots.map(({ x, y }) => (
          <circle key={`${x}-${y}`} cx={x + 0.5} cy={y + 0.5} r={0.45} />
        ))}
      </g>
    </svg>
  )
}
