import { useCallback } from 'react'

/** The height of one of the grid's thin rows, in px: the grid's `grid-auto-rows`. */
export const MASONRY_ROW_PX = 4

/**
 * Packs a CSS grid's items like bricks instead of in rows as tall as their tallest item. The grid
 * has thin rows (`grid-auto-rows: 4px`, no row gap) and each item spans as many as its own height
 * and the gap below it need; the grid's ordinary placement then puts each next item in the column
 * that frees up first, so the list keeps its order and a short card leaves no empty space beside
 * a tall one. The items keep their order in the document, for the keyboard and screen readers.
 *
 * Returns a ref for the grid: its items are measured before the first paint and again whenever
 * one changes size (an image arrives, a text is expanded, the columns change).
 */
export function useMasonryGrid(gapPx: number) {
  return useCallback(
    (grid: HTMLElement | null) => {
      if (!grid || typeof ResizeObserver === 'undefined') return
      const fit = (item: HTMLElement) => {
        const height = item.getBoundingClientRect().height
        const rows = Math.max(1, Math.ceil((height + gapPx) / MASONRY_ROW_PX))
        const span = `span ${rows}`
        if (item.style.gridRowEnd !== span) item.style.gridRowEnd = span
      }
      const sizes = new ResizeObserver((entries) => {
        for (const entry of entries) fit(entry.target as HTMLElement)
      })
      const watch = (node: Node) => {
        if (!(node instanceof HTMLElement)) return
        fit(node)
        sizes.observe(node)
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
