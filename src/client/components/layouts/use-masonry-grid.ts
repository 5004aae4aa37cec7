import { useCallback } from 'react'

/** The height of one of the grid's thin rows, in px: the grid's `grid-auto-rows`. */
export const MASONRY_ROW_PX = 4

/**
 * Packs a CSS grid's items like bricks instead of in rows as tall as their tallest item. The grid
 * has thin rows once packed (`data-packed` on it: `grid-auto-rows: 4px`, no row gap; before, the
 * ordinary rows and a row gap) and each item spans as many as its own height
 * and the gap below it need; the grid's ordinary placement then puts each next item in the column
 * that frees up first, so the list keeps its order and a short card leaves no empty space beside
 * a tall one. The items keep their order in the document, for the keyboard and screen readers.
 *
 * Returns a ref for the grid: its items are measured before the first paint and again whenever
 * one changes size (an image arrives, a text is expanded, the columns change), from what a
 * ResizeObserver reports, so measuring forces no layout.
 */
export function useMasonryGrid(gapPx: number) {
  return useCallback(
    (grid: HTMLElement | null) => {
      if (!grid || typeof ResizeObserver === 'undefined') return
      // The observer hands over each item's size after layout, so measuring forces no layout of
      // its own: it reports every item when first watched and again whenever one changes size.
      const sizes = new ResizeObserver((entries) => {
        for (const entry of entries) {
          const item = entry.target as HTMLElement
          const height = entry.borderBoxSize[0]?.blockSize ?? item.getBoundingClientRect().height
          const span = `span ${Math.max(1, Math.ceil((height + gapPx) / MASONRY_ROW_PX))}`
          if (item.style.gridRowEnd !== span) item.style.gridRowEnd = span
        }
        // Packed from the first report on (the grid's thin rows), in the same step as the spans:
        // until then, in the server's HTML and before the page's code runs, the items stand in
        // ordinary rows with the gap between them, and no frame shows them half packed.
        grid.dataset.packed = ''
      })
      const watch = (node: Node) => {
        if (node instanceof HTMLElement) sizes.observe(node)
      }
      grid.childNodes.forEach(watch)
      // The feed changes (a podclub added or gone): new items are measured as they arrive.
      const children = new MutationObserver((records) => {
        for (const record of records) {
          record.addedNodes.forEach(watch)
          record.removedNodes.forEach((node) => {
            if (node instanceof HTMLElement) sizes.unobserve(node)
          })
        }
      })
      children.observe(grid, { childList: true })
      return () => {
        children.disconnect()
        sizes.disconnect()
      }
    },
    [gapPx],
  )
}
