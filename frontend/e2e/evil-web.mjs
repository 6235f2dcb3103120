// A hostile web for the replay's security test: an HTTP proxy that serves
// http://evil.test/, a page whose script tries every known way out of
// ReplayWeb.page's frame to act with the app's authority: read the write
// token of GET /api/session, then add a librarian (POST /api/librarians)
// and an admin account (POST /api/accounts) named "evil-…". Crawl it with
// `sitesift crawl --proxy URL http://evil.test/`, then replay it.
//
//   node e2e/evil-web.mjs   prints the proxy's URL on its first line
//
// The page writes what each attempt got into <pre id="log"> (one line an
// attempt: "NAME: blocked …" or "NAME: REACHED …") and sets its title to
// "evil.test home" first, so that a test can wait for the replay and read
// the log through the frame.

import { createServer } from 'node:http';

/** script runs in the archived page: each attempt finds a window, or a fetch, that may have the app's authority. */
const script = String.raw`
(function () {
  // A link the crawl never saw (it runs no script): to a page never captured.
  var late = document.createElement('a');
  late.href = 'http://evil.test/never-captured.html';
  late.textContent = 'a page never captured';
  document.getElementById('late').appendChild(late);
  var log = document.getElementById('log');
  function say(name, what) { log.textContent += name + ': ' + what + '\n'; }
  // app is the app's origin as the archived page can learn it: the
  // frame's ancestors, or the referrer.
  var app = '';
  try { var a = location.ancestorOrigins; if (a && a.length) app = a[a.length - 1]; } catch (e) {}
  if (!app) try { app = new URL(document.referrer).origin; } catch (e) {}
  say('app-origin', app || '(unknown)');
  var n = 0;
  // attack uses the fetch of window w (or fetch itself) to read the token
  // and write with it; it says what it got.
  function attack(name, f, base) {
    var id = 'evil-' + name.replace(/[^a-z0-9]/gi, '').toLowerCase() + '-' + (++n);
    base = base || '';
    Promise.resolve().then(function () {
      return f(base + '/api/session', { credentials: 'include' });
    }).then(function (r) { return r.json(); }).then(function (s) {
      var token = s && s.data && s.data.token;
      if (!token) throw new Error('no token: ' + JSON.stringify(s).slice(0, 80));
      say(name, 'REACHED the token');
      var h = { 'Content-Type': 'application/json', 'X-Sitesift-Token': token };
      return Promise.all([
        f(base + '/api/librarians', { method: 'POST', headers: h, credentials: 'include', body: JSON.stringify({ name: id }) }),
        f(base + '/api/accounts', { method: 'POST', headers: h, credentials: 'include', body: JSON.stringify({ name: id, role: 'admin', password: 'evil-password-1234' }) }),
      ]).then(function (rs) { say(name, 'REACHED writes: ' + rs.map(function (r) { return r.status; }).join(' ')); });
    }).catch(function (e) { say(name, 'blocked: ' + String(e && e.message || e).slice(0, 120)); });
  }
  // via runs attack with the fetch of the window get() returns.
  function via(name, get) {
    try {
      var w = get();
      if (!w) { say(name, 'blocked: no window'); return; }
      var f = w.fetch.bind(w);
      attack(name, f, '');
    } catch (e) { say(name, 'blocked: ' + String(e && e.message || e).slice(0, 120)); }
  }
  via('top', function () { return window.top; });
  via('parent', function () { return window.parent.parent; });
  via('eval-this-top', function () { return (0, eval)('this')['to' + 'p']; });
  via('function-this-top', function () { return Function('return this')().top; });
  via('opener', function () { return window.opener; });
  via('frames-top', function () { return window.frames.top; });
  // The direct requests: to the app's origin, with its cookies.
  attack('direct-fetch', function (u, o) { return fetch(u, o); }, app);
  // wbinfo.prefix names the replay's own prefix: its origin's API, if any.
  try {
    var prefix = (window.wbinfo && window.wbinfo.prefix) || '';
    var origin = prefix ? new URL(prefix, location.href).origin : location.origin;
    attack('wbinfo-prefix', function (u, o) { return fetch(u, o); }, origin);
  } catch (e) { say('wbinfo-prefix', 'blocked: ' + e.message); }
  // A blob worker, outside ReplayWeb.page's rewriting.
  try {
    var src = 'var app=' + JSON.stringify(app) + ';fetch(app+"/api/session",{credentials:"include"}).then(function(r){return r.json()}).then(function(s){postMessage(s&&s.data&&s.data.token?"REACHED the token":"blocked: no token: "+JSON.stringify(s).slice(0,60))}).catch(function(e){postMessage("blocked: "+e.message)})';
    var wk = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    wk.onmessage = function (e) { say('blob-worker', e.data); };
    wk.onerror = function (e) { say('blob-worker', 'blocked: ' + (e.message || 'error')); };
  } catch (e) { say('blob-worker', 'blocked: ' + e.message); }
  // An about:blank frame: a fresh global without the rewriting.
  try {
    var fr = document.createElement('iframe');
    fr.src = 'about:blank';
    fr.style.display = 'none';
    document.body.appendChild(fr);
    var cw = fr.contentWindow;
    via('about-blank-top', function () { return cw.top; });
    attack('about-blank-fetch', function (u, o) { return cw.fetch(u, o); }, app);
  } catch (e) { say('about-blank', 'blocked: ' + e.message); }
  // The app's document itself, and its cookies.
  try {
    var d = window.top.document;
    say('top-document', d.location.origin === app ? 'REACHED the app\'s document: ' + d.title : 'blocked: the replay\'s own document (' + d.location.origin + ')');
  } catch (e) { say('top-document', 'blocked: ' + e.message.slice(0, 80)); }
  try { say('cookies', document.cookie ? 'REACHED ' + document.cookie.slice(0, 80) : 'blocked: none'); } catch (e) { say('cookies', 'blocked: ' + e.message); }
  // (Navigating the app away, and popups, are other.html's: they take the
  // frame away from this log.)
  // A message that claims to be the replay's.
  try { window.top.postMessage({ sitesift: 'replay', state: 'blocked', why: '<img src=x onerror=alert(1)>evil' }, '*'); say('message', 'sent'); } catch (e) { say('message', 'blocked: ' + e.message); }
  // A form: the cross-site write with no script at all.
  try {
    var form = document.createElement('form');
    form.method = 'POST'; form.action = app + '/api/librarians'; form.enctype = 'text/plain'; form.target = 'sink';
    var inp = document.createElement('input'); inp.name = '{"name":"evil-form","x":"'; inp.value = '"}'; form.appendChild(inp);
    var sink = document.createElement('iframe'); sink.name = 'sink'; sink.style.display = 'none'; document.body.appendChild(sink);
    document.body.appendChild(form); form.submit(); say('form-post', 'sent');
  } catch (e) { say('form-post', 'blocked: ' + e.message); }
  setTimeout(function () { say('done', 'all attempts made'); }, 3000);
})();
`;

const home = `<!doctype html>
<html><head><meta charset="utf-8"><title>evil.test home</title></head>
<body><h1>evil.test</h1>
<p>A page that tries to act with the authority of the app that replays it. <a href="/other.html">Another page</a>,
<span id="late"></span>.</p>
<pre id="log"></pre>
<script>${script}</script>
</body></html>`;

// other tries to navigate the app's page away, by each of its windows.
const other = `<!doctype html><html><head><meta charset="utf-8"><title>evil.test other</title></head>
<body><p>Another page of evil.test. <a href="/">Home</a>.</p>
<script>
(function () {
  var app = '';
  try { var a = location.ancestorOrigins; if (a && a.length) app = a[a.length - 1]; } catch (e) {}
  var go = [function () { return (0, eval)('this')['to' + 'p']; }, function () { return Function('return this')().top; }, function () { return window.top; }];
  setTimeout(function () {
    go.forEach(function (w) { try { w().location = app + '/#/evil'; } catch (e) {} try { w().location.href = app + '/#/evil'; } catch (e) {} });
    try { window.open(app + '/#/evil-popup'); } catch (e) {} try { go[0]().open(app + '/#/evil-popup'); } catch (e) {}
  }, 500);
})();
</script></body></html>`;

const server = createServer((req, res) => {
  let u;
  try {
    u = new URL(req.url, 'http://evil.test/');
  } catch {
    res.writeHead(400).end();
    return;
  }
  if (u.hostname !== 'evil.test') {
    res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`this proxy serves evil.test only, not ${u.hostname}\n`);
    return;
  }
  const body = u.pathname === '/' ? home : u.pathname === '/other.html' ? other : u.pathname === '/robots.txt' ? 'User-agent: *\nAllow: /\n' : null;
  if (body === null) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    return;
  }
  const type = u.pathname === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8';
  res.writeHead(200, { 'Content-Type': type }).end(body);
});
server.listen(0, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${server.address().port}`);
});
