import { api, nav, el, say } from '/static/common.js';
nav();

const $ = (id) => document.getElementById(id);
const BOTS = [
  ['random', 'builtin:random'], ['greedy', 'builtin:greedy'],
  ['alphabeta', 'builtin:alphabeta:ms=20'], ['mcts', 'builtin:mcts:ms=20'],
];
const COLOURS = ['#2f6fb3', '#b3261e', '#1f7a3a', '#8a4fbf', '#d08a00', '#117a8b', '#6b4f2a', '#444'];
const fmt = (x) => Math.round(x);

async function list() {
  const ts = await api('/tournaments');
  $('list').replaceChildren(
    el('tr', {}, ['#', 'game', 'bots', 'games', 'state', 'created'].map((h) => el('th', {}, h))),
    ...ts.map((t) => el('tr', {},
      el('td', {}, el('a', { href: `/tournaments?id=${t.id}` }, `#${t.id}`)), el('td', {}, t.game),
      el('td', {}, t.bots.map((b) => b.name).join(', ')), el('td', {}, `${t.played}/${t.total}`),
      el('td', {}, t.finished ? 'finished' : 'running or stopped'), el('td', {}, t.created))));
}

// Glicko-2 ratings start at 1500; TrueSkill's mu (Ants) at 25.
const trueskill = (d) => d.tournament.rating === 'trueskill';

function historyPlot(d) {
  const h = d.history, names = d.tournament.bots.map((b) => b.name);
  if (!h.length) return el('p', { class: 'muted' }, 'No round rated yet.');
  const ts = trueskill(d), key = ts ? 'mu' : 'rating', start = ts ? 25 : 1500, pad = ts ? 2 : 20;
  const fmt = ts ? (v) => v.toFixed(1) : (v) => Math.round(v);
  const all = h.flat().map((r) => r[key]).concat([start]);
  const lo = Math.min(...all) - pad, hi = Math.max(...all) + pad;
  const W = 600, H = 240, x = (i) => 40 + (i * (W - 120)) / Math.max(1, h.length), y = (v) => H - 20 - ((v - lo) * (H - 40)) / (hi - lo);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'rating after each round' });
  svg.append(el('line', { x1: 40, y1: H - 20, x2: W - 10, y2: H - 20, stroke: '#999' }));
  svg.append(el('text', { x: 2, y: y(hi - pad), 'font-size': 11 }, fmt(hi - pad)), el('text', { x: 2, y: y(lo + pad), 'font-size': 11 }, fmt(lo + pad)));
  const labels = [];
  names.forEach((n, b) => {
    const pts = [[x(0), y(start)], ...h.map((round, i) => [x(i + 1), y(round[b][key])])];
    svg.append(el('polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: COLOURS[b % 8], 'stroke-width': 2 }));
    labels.push([pts[pts.length - 1][1] - 4, n, b]);
  });
  // Names at the lines' ends, pushed apart so that close ratings stay readable.
  labels.sort((a, b) => a[0] - b[0]);
  labels.forEach((l, i) => { if (i > 0) l[0] = Math.max(l[0], labels[i - 1][0] + 13); });
  for (const [ly, n, b] of labels) svg.append(el('text', { x: W - 70, y: ly, fill: COLOURS[b % 8], 'font-size': 12 }, n));
  return svg;
}

function show(d) {
  const t = d.tournament, names = t.bots.map((b) => b.name);
  $('detail').hidden = false;
  $('title').textContent = `#${t.id}: ${t.game}, ${t.rounds} round${t.rounds > 1 ? 's' : ''}`;
  $('progress').textContent = `${t.played} of ${t.total} games played` + (t.finished ? ' · finished' : ' · live');
  $('history-title').textContent = trueskill(d) ? 'TrueSkill (mu) after each round' : 'Rating history';
  $('h2h-section').hidden = trueskill(d);
  if (trueskill(d)) return showAnts(d);
  $('standings').replaceChildren(
    el('tr', {}, ['bot', 'rating', 'deviation', 'won', 'drawn', 'lost'].map((h) => el('th', {}, h))),
    ...d.standings.map((s) => el('tr', {}, el('td', { title: s.spec }, s.bot), el('td', {}, fmt(s.rating)), el('td', {}, '±' + fmt(s.deviation)),
      el('td', {}, s.wins), el('td', {}, s.draws), el('td', {}, s.losses))));
  $('history').replaceChildren(historyPlot(d));
  $('h2h').replaceChildren(
    el('tr', {}, el('th', {}, ''), names.map((n) => el('th', {}, n))),
    ...names.map((n, a) => el('tr', {}, el('th', {}, n), names.map((_, b) => el('td', {}, a === b ? '·' : `${d.head_to_head[a][b].points}/${d.head_to_head[a][b].games}`)))));
  $('games').replaceChildren(
    el('tr', {}, ['round', 'first', 'second', 'result', ''].map((h) => el('th', {}, h))),
    ...d.games.map((g) => el('tr', {}, el('td', {}, g.round), el('td', {}, names[g.first]), el('td', {}, names[g.second]), el('td', {}, g.result),
      el('td', {}, el('a', { href: `/replay?t=${t.id}&g=${g.round}:${g.slot}` }, 'replay')))));
}

// An Ants tournament: TrueSkill standings (by mu - 3 sigma) and every game's seats with their places.
function showAnts(d) {
  const t = d.tournament, names = t.bots.map((b) => b.name), one = (v) => v.toFixed(2);
  const ordinal = (n) => n + (n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th');
  const seats = Math.max(2, ...d.standings.map((s) => s.places.length));
  $('standings').replaceChildren(
    el('tr', {}, ['rank', 'bot', 'mu', 'sigma', 'mu − 3σ', 'games', 'mean place', ...Array.from({ length: seats }, (_, i) => ordinal(i + 1))].map((h) => el('th', {}, h))),
    ...d.standings.map((s) => el('tr', {}, el('td', {}, s.rank), el('td', { title: s.spec }, s.bot), el('td', {}, one(s.mu)), el('td', {}, one(s.sigma)),
      el('td', {}, one(s.skill)), el('td', {}, s.games), el('td', {}, s.mean_place.toFixed(2)), ...s.places.map((n) => el('td', {}, n)))));
  $('history').replaceChildren(historyPlot(d));
  $('games').replaceChildren(
    el('tr', {}, ['round', 'seats (place)', 'result', ''].map((h) => el('th', {}, h))),
    ...d.games.map((g) => el('tr', {}, el('td', {}, g.round), el('td', {}, g.seats.map((s) => `${names[s.entry]} (${s.rank + 1})`).join(', ')), el('td', {}, g.result),
      el('td', {}, el('a', { href: `/replay?t=${t.id}&g=${g.round}:${g.slot}` }, 'replay')))));
}

async function detail(id) {
  show(await api(`/tournaments/${id}`));
  const events = new EventSource(`/api/tournaments/${id}/events`);
  events.addEventListener('update', (e) => {
    const d = JSON.parse(e.data);
    show(d);
    if (d.tournament.finished) { events.close(); list(); }
  });
  events.addEventListener('problem', (e) => say(JSON.parse(e.data).error, 'bad'));
}

async function start() {
  const bots = BOTS.filter(([n]) => $('bot-' + n).checked).map(([name, spec]) => ({ name, spec }));
  try {
    const r = await api('/tournaments', { game: $('game').value, rounds: Number($('rounds').value), bots });
    history.pushState(null, '', `/tournaments?id=${r.id}`);
    say(`Tournament #${r.id} started.`, 'ok');
    detail(r.id); list();
  } catch (e) { say(e.message, 'bad'); }
}

const games = (await api('/games')).filter((g) => g.tournaments);
$('game').replaceChildren(...games.map((g) => el('option', { value: g.name }, g.title || g.name)));
$('bots').append(...BOTS.map(([n, spec]) => el('label', {}, el('input', { type: 'checkbox', id: 'bot-' + n, checked: n !== 'mcts' }), ' ' + n, el('span', { class: 'muted' }, ` (${spec})`))));
$('go').addEventListener('click', start);
const id = new URLSearchParams(location.search).get('id');
if (id) detail(Number(id)).catch((e) => say(e.message, 'bad'));
list().catch((e) => say(e.message, 'bad'));
// Tournaments started elsewhere (`ply tournament` on the same database) appear without a reload.
setInterval(() => { if (!document.hidden) list().catch(() => {}); }, 3000);
