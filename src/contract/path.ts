/*
 * Paths with parameters, as the server's router and the page's router both write them:
 * `:name` is one segment, `:name?` an optional one. The page addresses (pages.ts) and the API's
 * calls (endpoint.ts) are declared in this form, and links and requests are built from them here,
 * so a path is written once.
 */

type Segments<P extends string> = P extends `${infer Head}/${infer Tail}`
  ? Head | Segments<Tail>
  : P
type ParamSegment<S> = S extends `:${infer Name}` ? Name : never
type DeclaredParams<P extends string> = ParamSegment<Segments<P>>
type OptionalParams<N> = N extends `${infer Name}?` ? Name : never
type RequiredParams<N> = N extends `${string}?` ? never : N

/** The names of a path's parameters: `'/polls/:pollId/:voteCode?'` → `'pollId' | 'voteCode'`. */
export type PathParamName<P extends string> =
  RequiredParams<DeclaredParams<P>> | OptionalParams<DeclaredParams<P>>

/** A value for each parameter of a path; an optional one may be left out. */
export type PathParams<P extends string> = {
  [K in RequiredParams<DeclaredParams<P>>]: string | number
} & {
  [K in OptionalParams<DeclaredParams<P>>]?: string | number | undefined
}

const PARAM = /\/:(\w+)(\?)?/g

/** The parameter names a path declares, in order (for checks at runtime). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAM)].map((match) => match[1]!)
}

/**
 * The path with its parameters filled in, each percent-encoded as one segment, so a value never
 * changes what the path means. An optional parameter left out (or empty) drops its segment.
 */
export function buildPath<P extends string>(
  path: P,
  params: PathParams<P>,
  query?: Record<string, string>,
): string {
  const values = params as Record<string, string | number | undefined>
  const filled = path.replace(PARAM, (_all, name: string, optional?: string) => {
    const value = values[name]
    if (optional && (value === undefined || value === '')) return ''
    return `/${encodeURIComponent(String(value ?? ''))}`
  })
  const search = query ? new URLSearchParams(query).toString() : ''
  return `${filled || '/'}${search ? `?${search}` : ''}`
}
