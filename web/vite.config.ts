import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** Where the api (and the embedded sync server) listens in development. */
const API_ORIGIN = 'http://localhost:3000'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      // Same-origin in the browser, so the session cookie and the api's Origin check just work.
      '/api': { target: API_ORIGIN, changeOrigin: false },
      '/sync': { target: API_ORIGIN, changeOrigin: false, ws: true },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // Other libraries go with the code that uses them: the editor's load with the editor.
          ],
        },
      },
    },
  },
})
