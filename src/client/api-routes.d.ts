// The module the build writes from the contract's declarations (vite.config.ts, `apiRoutes`).
declare module 'virtual:api-routes' {
  import type { ApiRoute } from '#contract/endpoint'
  import type { Endpoints } from '#contract/endpoints'

  export const apiRoutes: { readonly [N in keyof Endpoints]: ApiRoute<Endpoints[N]> }
}

// The files each screen loads beyond the page's entry (vite.config.ts, `screenPreloads`).
declare module 'virtual:screen-preloads' {
  export const screenPreloads: Readonly<Record<string, readonly string[]>>
}
