// Run before ReplayWeb.page's ui.js (the build puts it at the head of the
// file): ui.js formats dates in navigator.language, and WebKitGTK under a
// C.UTF-8 locale names that language "C", which every Intl API refuses:
// ui.js then throws as it loads and replays nothing. A language no Intl API
// takes is read as en-US, the language of a C locale; any other is left be.
(() => {
  try {
    Intl.getCanonicalLocales(navigator.language);
  } catch {
    Object.defineProperty(Navigator.prototype, 'language', { get: () => 'en-US', configurable: true });
    Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['en-US'], configurable: true });
  }
})();
