// The frame page of sitesift's replay origin: the app's page frames it to
// replay one site's captures. It holds ReplayWeb.page's <replay-web-page>,
// whose service worker replays the site's WACZ file (the source query
// parameter, a path of this origin) at the URL of this page's fragment
// ("#" and the URL percent-encoded); a new fragment shows another page.
//
// This origin is not the app's: it holds no cookie, no token and no route
// to the app's API, so an archived page's script that reaches this page
// (it can: they share the origin) finds nothing of the app's. For the
// same reason the app trusts none of the messages this page sends it
// (below): they only say which URL is shown, as text.
//
// It runs before ui.js, to hear of an error that keeps ui.js from defining
// its element in this browser engine, and starts the replay once the page
// has loaded (ui.js registers its service worker then).
(async () => {
  'use strict';
  const failures = [];
  window.addEventListener('error', (e) => failures.push(`${e.message} (${e.filename}:${e.lineno})`));
  await new Promise((ok) => (document.readyState === 'complete' ? ok() : window.addEventListener('load', ok)));
  const msg = document.getElementById('msg');
  const source = new URLSearchParams(location.search).get('source') || '';

  /** say shows text in place of the replay. */
  function say(text) {
    msg.textContent = text;
    msg.hidden = false;
  }

  /** post tells the app's page how the replay goes: {sitesift: 'replay', state, …}. */
  function post(m) {
    if (window.parent !== window) window.parent.postMessage(Object.assign({ sitesift: 'replay' }, m), '*');
  }

  /** shown is the URL of the fragment: the captured page to show. */
  function shown() {
    try {
      return decodeURIComponent(location.hash.slice(1));
    } catch {
      return '';
    }
  }

  /** active registers ReplayWeb.page's worker as its element does (same script and scope) and waits until it is active. */
  async function active() {
    const reg = await navigator.serviceWorker.register('/replay/sw.js?serveIndex=1', { scope: '/replay/' });
    if (reg.active) return;
    const sw = reg.installing || reg.waiting;
    if (!sw) throw new Error('no worker installing');
    await new Promise((ok, fail) => {
      sw.addEventListener('statechange', () => {
        if (sw.state === 'activated') ok();
        else if (sw.state === 'redundant') fail(new Error('the worker was replaced or failed to install'));
      });
    });
  }

  /** iframes lists the frames of doc, those of its elements' shadow trees included (ReplayWeb.page keeps its frames there). */
  function iframes(doc) {
    const out = [];
    const roots = [doc];
    while (roots.length) {
      for (const el of roots.pop().querySelectorAll('*')) {
        if (el.tagName === 'IFRAME') out.push(el);
        if (el.shadowRoot) roots.push(el.shadowRoot);
      }
    }
    return out;
  }

  /**
   * showing finds, breadth first under doc, the frame of the archived page
   * (ReplayWeb.page's address of it holds "mp_/" and the page's URL) and
   * says which URL it shows and whether the archive lacks it.
   */
  function showing(doc, depth) {
    const below = [];
    for (const el of iframes(doc)) {
      try {
        const w = el.contentWindow;
        const href = w.location.href;
        const at = href.indexOf('mp_/');
        if (at >= 0) {
          const d = w.document;
          const notFound = w.errorReason === 'notFound' || (d && d.title === 'Archived Page Not Found');
          return { url: href.slice(at + 4), title: d ? d.title : '', notFound };
        }
        if (w.document) below.push(w.document);
      } catch {
        // a frame of another origin: not the replay's
      }
    }
    if (depth >= 3) return null;
    for (const d of below) {
      const p = showing(d, depth + 1);
      if (p) return p;
    }
    return null;
  }

  if (!/^\/w\/[0-9a-f]{32}\/[^/?#]+\.wacz$/.test(source)) {
    const why = 'This replay names no capture file of sitesift: open the site page in sitesift again.';
    say(why);
    post({ state: 'error', why });
    return;
  }
  if (!customElements.get('replay-web-page')) {
    const why = `ReplayWeb.page does not run in this browser engine${failures.length ? `: ${failures[0]}` : ''}.`;
    say(why);
    post({ state: 'blocked', why });
    return;
  }
  if (!window.isSecureContext || !('serviceWorker' in navigator)) {
    const why = window.isSecureContext
      ? 'This window cannot replay captures: its browser engine gives the replay no service worker, and ReplayWeb.page needs one.'
      : 'This browser gives the replay no service worker: it needs https, or http on this machine (127.0.0.1 or localhost).';
    say(why);
    post({ state: 'blocked', why });
    return;
  }
  active().then(
    () => {
      const el = document.createElement('replay-web-page');
      el.setAttribute('source', source);
      el.setAttribute('url', shown());
      el.setAttribute('replaybase', '/replay/');
      el.setAttribute('embed', 'replayonly');
      el.addEventListener('rwp-url-change', (e) => {
        const d = e.detail || {};
        post({ state: 'url', url: String(d.url || ''), title: String(d.title || ''), notFound: !!d.replayNotFoundError });
      });
      window.addEventListener('hashchange', () => el.setAttribute('url', shown()));
      // A link followed inside the replay to a page the archive does not
      // hold shows ReplayWeb.page's "not found" page, which tells the
      // element nothing: read the page the replay shows from its frame.
      let last = '';
      setInterval(() => {
        const p = showing(document, 0);
        if (!p || p.url + p.notFound === last) return;
        last = p.url + p.notFound;
        post({ state: 'url', url: p.url, title: p.title, notFound: p.notFound });
      }, 500);
      msg.hidden = true;
      document.body.append(el);
      post({ state: 'ready' });
    },
    (err) => {
      const why = `ReplayWeb.page's service worker did not start: ${err && err.message ? err.message : String(err)}`;
      say(why);
      post({ state: 'blocked', why });
    },
  );
})();
