/*
 * The page's CSP allows no eval, so zod must not compile its parsers, nor probe whether it may
 * (the browser reports the probe as a violation). `z.config({ jitless: true })` would say so,
 * but importing it would put zod in the first load, which carries none. Zod keeps its settings
 * in one object on `globalThis.__zod_globalConfig`, made when it first loads unless one is
 * there: this sets `jitless` on that object, before or after zod loads (zod-jitless.test.ts
 * checks zod reads it). Imported first by main.tsx; the screens' schemas load after it.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
holder.__zod_globalConfig ??= {}
holder.__zod_globalConfig.jitless = true

export {}
