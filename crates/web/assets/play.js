import { api, nav, el, say } from '/static/common.js';
nav();

const $ = (id) => document.getElementById(id);
let games = [];
let view = null;      // the server's view of the position
let selected = null;  // [r, c] of the piece picked
let last = new Set(); // cells the AI's last move changed, "r,c"
let busy = false;
let you = 1;

function cellContent(game, v) {
  if (v === '.' || /^0+$/.test(v)) return '';
  if (game === 'tictactoe') return el('span', { class: 'piece-' + v }, v.toUpperCase());
  if (game === 'othello' || game === 'reversi') return el('span', { class: 'disc ' + v, 'aria-label': v });
  if (game === 'draughts') return el('span', { class: 'man ' + v, 'aria-label': v });
  // Taunt: three-digit codes, the first digit the player.
  return el('span', { class: v[0] === '1' ? 'piece-x' : 'piece-o', style: 'font-size:.7em' }, v);
}

function draw() {
  const game = $('game').value;
  const board = $('board');
  board.replaceChildren();
  const rows = view.cells.length, cols = view.cells[0].length;
  board.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
  board.style.aspectRatio = `${cols} / ${rows}`;
  const mine = view.to_move === you && !view.outcome;
  const targets = new Set();
  if (selected) for (const m of view.legal) if (m.from && m.from[0] === selected[0] && m.from[1] === selected[1] && m.to) targets.add(m.to.join(','));
  view.cells.forEach((row, r) => row.forEach((v, c) => {
    const key = r + ',' + c;
    const cls = [];
    if (game === 'draughts' && (r + c) % 2 === 1) cls.push('dark');
    if (selected && selected[0] === r && selected[1] === c) cls.push('sel');
    if (targets.has(key)) cls.push('target');
    if (last.has(key)) cls.push('last');
    if (mine && !selected && view.legal.some((m) => !m.from && m.to && m.to.join(',') === key)) cls.push('target');
    board.append(el('button', {
      class: cls.join(' '), 'data-r': r, 'data-c': c, role: 'gridcell',
      'aria-label': `row ${r + 1} column ${c + 1}${v === '.' ? ' empty' : ' ' + v}`,
      onclick: () => click(r, c),
    }, cellContent(game, v)));
  }));
  const moves = $('moves');
  moves.replaceChildren(...(mine ? view.legal.map((m) => el('button', { onclick: () => send(m.move) }, m.move)) : []));
  if (view.outcome) {
    const w = view.outcome.winner;
    say(w === null ? 'Draw.' : w === you ? 'You win!' : 'The AI wins.', w === you ? 'ok' : '');
  } else if (!busy) {
    say(mine ? `Your move (player ${you}).` : 'The AI is thinking…');
  }
}

function click(r, c) {
  if (busy || !view || view.outcome || view.to_move !== you) return;
  const at = (p) => p && p[0] === r && p[1] === c;
  if (selected) {
    const m = view.legal.find((m) => at(m.to) && m.from && m.from[0] === selected[0] && m.from[1] === selected[1]);
    if (m) return send(m.move);
  }
  const place = view.legal.find((m) => !m.from && at(m.to));
  if (place) return send(place.move);
  selected = view.legal.some((m) => at(m.from)) ? [r, c] : null;
  draw();
}

function report(ai) {
  last = new Set(((ai && ai.changed) || []).map((c) => c.join(',')));
  if (!ai || !ai.report) return;
  const r = ai.report;
  $('report').textContent = `${r.name} played ${ai.move}` +
    (r.depth !== undefined ? ` · depth ${r.depth} · score ${r.score}${r.exact ? ' (exact)' : ''} · ${r.nodes} nodes · line ${r.pv.join(' ')}` : '') +
    (r.solved ? ' · proved best by the endgame solver' : '') +
    (r.book ? ' · from the opening book' : '');
}

async function send(move) {
  busy = true; selected = null;
  say('The AI is thinking…');
  try {
    const res = await api(`/play/${$('game').value}/move`, {
      state: view.state, move, ai: $('ai').value, ms: Number($('ms').value),
    });
    view = res.view; report(res.ai);
  } catch (e) { say(e.message, 'bad'); busy = false; return; }
  busy = false; draw();
}

async function newGame() {
  busy = true; selected = null; $('report').textContent = '-';
  you = Number($('you').value);
  say('Starting…');
  try {
    const res = await api(`/play/${$('game').value}/new`, { ai: $('ai').value, ms: Number($('ms').value), you });
    view = res.view; report(res.ai);
  } catch (e) { say(e.message, 'bad'); busy = false; return; }
  busy = false; draw();
}

function fillAis() {
  const g = games.find((g) => g.name === $('game').value);
  $('ai').replaceChildren(...g.ais.map((a) => el('option', { value: a }, a)));
}

games = (await api('/games')).filter((g) => g.kind === 'game');
$('game').replaceChildren(...games.map((g) => el('option', { value: g.name }, g.title || g.name)));
const want = new URLSearchParams(location.search).get('game');
if (want && games.some((g) => g.name === want)) $('game').value = want;
fillAis();
$('game').addEventListener('change', () => { fillAis(); newGame(); });
$('new').addEventListener('click', newGame);
newGame();
