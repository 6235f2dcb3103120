// A small web for the replay's styles test: an HTTP proxy that serves
// http://styled.test/, whose home page has styles of its own (inline) and
// links to a style sheet, and a second page with inline styles only. The
// crawl keeps pages, not style sheets, so the replay shows the home page
// with its inline styles and without its sheet, and says so. Crawl it with
// `sitesift crawl --proxy URL http://styled.test/`.
//
//   node e2e/styled-web.mjs   prints the proxy's URL on its first line

import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/** INK is the colour the pages' own inline styles give their headings. */
export const INK = 'rgb(12, 34, 56)';

const page = (title, head, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${head}<style>h1 { color: ${INK}; font-family: Georgia, serif; }</style></head>
<body><h1>${title}</h1>${body}</body></html>`;

const files = {
  '/': [
    'text/html; charset=utf-8',
    page('Styled home', '<link rel="stylesheet" href="/site.css">', '<p>A page with a style sheet of its own.</p><p><a href="/inline.html">Inline only</a></p>'),
  ],
  '/inline.html': ['text/html; charset=utf-8', page('Inline only', '', '<p>A page whose styles are all inline.</p><p><a href="/">Home</a></p>')],
  '/site.css': ['text/css', 'body { background: rgb(250, 240, 200); }\n'],
  '/robots.txt': ['text/plain', 'User-agent: *\nAllow: /\n'],
};

/** serve answers as the proxy of styled.test. */
function serve(req, res) {
  let u;
  try {
    u = new URL(req.url, 'http://styled.test/');
  } catch {
    res.writeHead(400).end();
    return;
  }
  if (u.hostname !== 'styled.test') {
    res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`this proxy serves styled.test only, not ${u.hostname}\n`);
    return;
  }
  const f = files[u.pathname];
  if (!f) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    return;
  }
  res.writeHead(200, { 'Content-Type': f[0] }).end(f[1]);
}

// Run, it serves; imported (for INK), it does not.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = createServer(serve);
  server.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${server.address().port}`);
  });
}
