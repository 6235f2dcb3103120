import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * replayWebPage copies ReplayWeb.page's prebuilt ui.js (the <replay-web-page>
 * element) and sw.js (its service worker) into dist/replay/, with the frame
 * page that holds the element (replay/frame.html and frame.js), so that the
 * binary serves them, no CDN. It serves them on its replay origin alone,
 * never on the app's (app/httpapi/replay.go): archived pages run scripts.
 * They stay out of the app's module graph: ui.js pins a Lit of its own.
 * Served from /replay/, the service worker's default scope is /replay/,
 * which covers the replay: no Service-Worker-Allowed header is needed.
 */
function replayWebPage(): Plugin {
  // The package exports neither file (nor its package.json): read them from its directory.
  const dir = fileURLToPath(new URL('./node_modules/replaywebpage/', import.meta.url));
  return {
    name: 'sitesift-replaywebpage',
    generateBundle() {
      // ui.js runs after replay/language.js, which gives it a language Intl takes (see there).
      const language = readFileSync(fileURLToPath(new URL('./replay/language.js', import.meta.url)), 'utf8');
      this.emitFile({ type: 'asset', fileName: 'replay/ui.js', source: `${language}\n${readFileSync(join(dir, 'ui.js'), 'utf8')}` });
      this.emitFile({ type: 'asset', fileName: 'replay/sw.js', source: readFileSync(join(dir, 'sw.js')) });
      for (const f of ['frame.html', 'frame.js']) {
        this.emitFile({ type: 'asset', fileName: `replay/${f}`, source: readFileSync(fileURLToPath(new URL(`./replay/${f}`, import.meta.url))) });
      }
    },
  };
}

// The build is embedded into the Go binary and served both in the Wails
// window (WebKitGTK) and in Chromium by `sitesift serve`, so asset URLs are
// relative and the syntax target stays within what Debian 12's WebKitGTK runs.
export default defineConfig({
  base: './',
  plugins: [replayWebPage()],
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
