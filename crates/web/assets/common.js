// Shared by every page: the API helper (with the server's token when there is one), the
// navigation bar and a tiny element builder.

const params = new URLSearchParams(location.search);
if (params.get('token')) sessionStorage.setItem('ply-token', params.get('token'));

/** Calls the JSON API; throws an Error with the server's message on a 4xx/5xx. */
export async function api(path, body) {
  const opts = { headers: {} };
  if (body !== undefined) {
    opts.method = 'POST';
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const token = sessionStorage.getItem('ply-token');
  if (token) opts.headers['Authorization'] = 'Bearer ' + token;
  const res = await fetch('/api' + path, opts);
  const type = res.headers.get('content-type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new Error((data && data.error) || res.statusText);
  return data;
}

/** el('div', {class: 'x', onclick: f}, child, 'text', ...) */
export function el(tag, attrs = {}, ...children) {
  const ns = ['svg', 'rect', 'circle', 'line', 'polyline', 'text', 'g', 'path'].includes(tag)
    ? 'http://www.w3.org/2000/svg' : null;
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

const PAGES = [
  ['/', 'ply'], ['/play', 'Play the AI'], ['/hanoi', 'Hanoi'], ['/sudoku', 'Sudoku'], ['/peg', 'Peg solitaire'], ['/breaker', 'Block Breaker'],
  ['/tournaments', 'Tournaments'], ['/replay', 'Replays'],
];

/** The navigation bar at the top of every page. */
export function nav() {
  const bar = el('nav', { 'aria-label': 'pages' },
    PAGES.map(([href, name]) => el('a', { href, 'aria-current': location.pathname === href ? 'page' : null }, name)));
  document.body.prepend(bar);
}

/** Shows a message in the page's status line (role=status, read by screen readers). */
export function say(text, kind = '') {
  const s = document.getElementById('status');
  if (s) { s.textContent = text; s.className = kind; }
}
