import { api, nav, el, say } from '/static/common.js';
import { AntsReplay } from '/static/ants.js';
nav();

const $ = (id) => document.getElementById(id);
let frames = 0;       // number of positions (moves + 1 for board games, turns + 1 for Ants)
let at = 0;
let timer = null;
let render = () => {};

function go(i) {
  at = Math.max(0, Math.min(frames - 1, i));
  $('jump').value = at;
  $('at').textContent = `${at} / ${frames - 1}`;
  render(at);
}

function playPause() {
  if (timer) { clearInterval(timer); timer = null; $('play').textContent = 'play'; return; }
  if (at >= frames - 1) go(0);
  $('play').textContent = 'pause';
  timer = setInterval(() => { if (at >= frames - 1) playPause(); else go(at + 1); }, Number($('speed').value));
}

function open(title, count, draw) {
  if (timer) playPause();
  frames = count; render = draw;
  $('viewer').hidden = false;
  $('title').textContent = title;
  $('jump').max = frames - 1;
  go(0);
}

function boardGame(d, title) {
  const game = d.game;
  $('antsControls').hidden = true;
  $('plot').replaceChildren();
  open(title, d.frames.length, (i) => {
    const f = d.frames[i];
    const rows = f.cells.length, cols = f.cells[0].length;
    const board = el('div', { class: 'board', style: `grid-template-columns:repeat(${cols},1fr);grid-template-rows:repeat(${rows},1fr);aspect-ratio:${cols}/${rows}` });
    f.cells.forEach((row, r) => row.forEach((v, c) => {
      let content = '';
      if (v !== '.' && !/^0+$/.test(v)) {
        if (game === 'othello' || game === 'reversi') content = el('span', { class: 'disc ' + v });
        else if (game === 'draughts') content = el('span', { class: 'man ' + v });
        else if (game === 'tictactoe') content = el('span', { class: 'piece-' + v }, v.toUpperCase());
        else content = el('span', { class: v[0] === '1' ? 'piece-x' : 'piece-o', style: 'font-size:.7em' }, v);
      }
      board.append(el('button', { tabindex: -1, class: game === 'draughts' && (r + c) % 2 ? 'dark' : '' }, content));
    }));
    $('stage').replaceChildren(board, el('p', {}, i === 0 ? 'Start position' : `Move ${i}: ${f.move}`));
  });
}

async function fromJson(json, title) {
  if (json.replaydata || (json.challenge === 'ants')) {
    const r = new AntsReplay(json);
    $('antsControls').hidden = false;
    $('who').replaceChildren(el('option', { value: -1 }, 'whole map'),
      ...r.players.map((p, i) => el('option', { value: i }, `player ${i + 1}'s view${p ? ' (' + p + ')' : ''}`)));
    $('plot').replaceChildren(r.plot());
    open(title, r.turns + 1, (i) => $('stage').replaceChildren(r.draw(i, Number($('who').value))));
    return;
  }
  if (json.game && json.start !== undefined && json.moves) {
    boardGame(await api('/replay/expand', { game: json.game, start: json.start, moves: json.moves }), title);
    return;
  }
  throw new Error('not a replay this viewer knows: expected ply\'s game replay or an Ants revision-3 replay');
}

async function fromText(text, title) {
  try { await fromJson(JSON.parse(text), title); say(''); } catch (e) { say(e.message, 'bad'); }
}

$('first').addEventListener('click', () => go(0));
$('prev').addEventListener('click', () => go(at - 1));
$('next').addEventListener('click', () => go(at + 1));
$('last').addEventListener('click', () => go(frames - 1));
$('play').addEventListener('click', playPause);
$('jump').addEventListener('input', () => go(Number($('jump').value)));
$('speed').addEventListener('change', () => { if (timer) { playPause(); playPause(); } });
$('who').addEventListener('change', () => render(at));
document.addEventListener('keydown', (e) => {
  if ($('viewer').hidden || ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName) && e.target.type !== 'range') return;
  const k = { ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1), Home: () => go(0), End: () => go(frames - 1), ' ': playPause }[e.key];
  if (k) { e.preventDefault(); k(); }
});
$('file').addEventListener('change', async () => { const f = $('file').files[0]; if (f) fromText(await f.text(), f.name); });
$('drop').addEventListener('dragover', (e) => e.preventDefault());
$('drop').addEventListener('drop', async (e) => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) fromText(await f.text(), f.name); });
$('files').addEventListener('change', async () => {
  const name = $('files').value;
  if (!name) return;
  try { await fromText(await (await fetch('/api/replays/' + encodeURIComponent(name))).text(), name); } catch (e) { say(e.message, 'bad'); }
});

for (const n of await api('/replays')) $('files').append(el('option', { value: n }, n));
const q = new URLSearchParams(location.search);
if (q.get('t') && q.get('g')) {
  const [round, slot] = q.get('g').split(':');
  try {
    const d = await api(`/tournaments/${q.get('t')}/games/${round}/${slot}`);
    if (d.seats) {
      // An Ants game: the original's stored game, drawn by the Ants viewer.
      await fromJson(d.replay, `Tournament #${q.get('t')}, round ${round}, game ${Number(slot) + 1} · ${d.result}`);
    } else {
      const names = d.replay.players.map((p) => p.name).join(' vs ');
      boardGame({ game: d.replay.game, frames: d.frames }, `Tournament #${q.get('t')}, round ${round}: ${names} · ${d.result}`);
    }
  } catch (e) { say(e.message, 'bad'); }
} else if (q.get('file')) {
  $('files').value = q.get('file');
  $('files').dispatchEvent(new Event('change'));
}
