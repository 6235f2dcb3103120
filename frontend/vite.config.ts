import { defineConfig } from 'vite';

// The build is embedded into the Go binary and served both in the Wails
// window (WebKitGTK) and in Chromium by `sitesift serve`, so asset URLs are
// relative and the syntax target stays within what Debian 12's WebKitGTK runs.
export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: ['es2021', 'chrome100', 'safari15'],
    sourcemap: false,
  },
  server: {
    // `npm run dev` talks to a running `sitesift serve`; set SITESIFT_API to its address.
    proxy: {
      '/api': { target: process.env.SITESIFT_API ?? 'http://127.0.0.1:7777', changeOrigin: false },
    },
  },
});
