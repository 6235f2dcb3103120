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
  // The service worker (1.2 MB of script to fetch, compile and install the
  // first time) is registered at once, while ui.js loads, rather than one
  // after the other: the replay's first page comes that much sooner.
  const registering =
    window.isSecureContext && 'serviceWorker' in navigator
      ? navigator.serviceWorker.register('/replay/sw.js?serveIndex=1', { scope: '/replay/' })
      : null;
  registering?.catch(() => undefined); // reported where it is awaited, below
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

  /** active waits until ReplayWeb.page's worker, registered as its element does (same script and scope), is active. */
  async function active() {
    const reg = await registering;
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
   * unstyled counts the style sheets the archived page of window w links
   * to that did not load, once it has loaded: sitesift's crawl keeps a
   * site's pages, not their style sheets, so the replay answers "not found"
   * for them and shows the page with its own inline styles only. The
   * status is the page's resource timing's (the replay's address of a
   * sheet ends in "_/" and the sheet's own URL); an engine that gives no
   * status there gives a sheet that failed no style sheet object.
   */
  function unstyled(w) {
    const d = w.document;
    if (!d || d.readyState !== 'complete') return { sheets: 0, missing: 0 };
    const links = [...d.querySelectorAll('link[rel~="stylesheet" i][href]')].filter((l) => !l.disabled);
    const timed = w.performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'link');
    const failed = (l) => {
      const e = timed.find((t) => t.name.endsWith('_/' + l.href));
      return e && typeof e.responseStatus === 'number' && e.responseStatus > 0 ? e.responseStatus >= 400 : !l.sheet;
    };
    return { sheets: links.length, missing: links.filter(failed).length };
  }

  /**
   * showing finds, breadth first under doc, the frame of the archived page
   * (ReplayWeb.page's address of it holds "mp_/" and the page's URL) and
   * says which URL it shows, whether the archive lacks it and how many of
   * its style sheets did not load.
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
          return { url: href.slice(at + 4), title: d ? d.title : '', notFound, ...(notFound ? { sheets: 0, missing: 0 } : unstyled(w)) };
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
        const key = p && `${p.url} ${p.notFound} ${p.missing}/${p.sheets}`;
        if (!p || key === last) return;
        last = key;
        post({ state: 'url', url: p.url, title: p.title, notFound: p.notFound, sheets: p.sheets, missingSheets: p.missing });
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
