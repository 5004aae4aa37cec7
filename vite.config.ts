import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const src = (dir: string) => fileURLToPath(new URL(`./src/${dir}/`, import.meta.url))

const reactRouterProduction = fileURLToPath(
  new URL('./node_modules/react-router/dist/production/', import.meta.url),
)

export default defineConfig(({ mode }) => ({
  root: 'src/client',
  publicDir: fileURLToPath(new URL('./src/client/public', import.meta.url)),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      { find: /^#contract\//, replacement: src('contract') },
      { find: /^#client\//, replacement: src('client') },
      // react-router's package exports name only its development build; ship the production one.
      ...(mode === 'production'
        ? [
            { find: /^react-router\/dom$/, replacement: `${reactRouterProduction}dom-export.mjs` },
            { find: /^react-router$/, replacement: `${reactRouterProduction}index.mjs` },
          ]
        : []),
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // The first-load budget is checked by `npm run size` (gzip), not by this minified-size warning.
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/healthz': 'http://127.0.0.1:3000' },
  },
}))
