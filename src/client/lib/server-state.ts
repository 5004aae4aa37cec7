/**
 * The id of the `<script type="application/json">` in which the server hands the browser what it
 * drew the first screen with (entry-server.tsx, plugins/static-page.ts); main.tsx reads it.
 */
export const SERVER_STATE_ID = 'server-state'
