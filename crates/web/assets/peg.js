import { api, nav, el, say } from '/static/common.js';
nav();

const $ = (id) => document.getElementById(id);
let layout = null;     // rows, cols, geometry, holes
let pegs = new Map();  // "r,c" -> weight
let history = [];      // earlier `pegs`, for undo
let picked = null;
let solution = null;   // { start, jumps, at }
let timer = null;

const key = (r, c) => `${r},${c}`;
const isHole = (r, c) => layout.holes.some(([a, b]) => a === r && b === c);
const dirs = () => layout.geometry === 'square' ? [[-1, 0], [0, -1], [0, 1], [1, 0]] : [[-1, -1], [-1, 0], [0, -1], [0, 1], [1, 0], [1, 1]];

function source() {
  return $('board').value === 'weighted' ? { matrix: $('matrix').value } : { board: $('board').value };
}

function jumpOf(fr, fc, tr, tc) {
  for (const [dr, dc] of dirs()) {
    if (fr + 2 * dr === tr && fc + 2 * dc === tc) {
      const over = key(fr + dr, fc + dc);
      if (pegs.has(key(fr, fc)) && pegs.has(over) && !pegs.has(key(tr, tc)) && isHole(tr, tc)) return over;
    }
  }
  return null;
}

function canMove() {
  for (const k of pegs.keys()) {
    const [r, c] = k.split(',').map(Number);
    for (const [dr, dc] of dirs()) if (jumpOf(r, c, r + 2 * dr, c + 2 * dc)) return true;
  }
  return false;
}

function jump(fr, fc, tr, tc) {
  const over = jumpOf(fr, fc, tr, tc);
  if (!over) return false;
  history.push(new Map(pegs));
  const w = pegs.get(key(fr, fc));
  pegs.delete(key(fr, fc)); pegs.delete(over); pegs.set(key(tr, tc), w);
  return true;
}

function draw() {
  const { rows, cols } = layout;
  const S = 48, tri = layout.geometry === 'triangular';
  const svg = el('svg', { viewBox: `0 0 ${cols * S + (tri ? rows * S / 2 : 0)} ${rows * S}`, width: '100%', style: 'max-width:32rem', role: 'group', 'aria-label': 'board' });
  for (const [r, c] of layout.holes) {
    // Triangular boards are stored left-aligned; drawn centred.
    const x = c * S + S / 2 + (tri ? (rows - 1 - r) * S / 2 : 0), y = r * S + S / 2;
    const k = key(r, c), peg = pegs.has(k);
    const g = el('g', { tabindex: 0, role: 'button', 'data-hole': k, 'aria-label': `row ${r + 1} column ${c + 1}: ${peg ? 'peg' : 'empty'}`,
      onclick: () => click(r, c), onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); click(r, c); } } });
    g.append(el('circle', { cx: x, cy: y, r: S * 0.4, fill: '#e9edf3', stroke: '#7a8699' }));
    if (peg) {
      const sel = picked && picked[0] === r && picked[1] === c;
      g.append(el('circle', { cx: x, cy: y, r: S * 0.3, fill: sel ? '#f0a500' : '#2f6fb3' }));
      if ($('board').value === 'weighted') g.append(el('text', { x, y: y + 5, 'text-anchor': 'middle', fill: '#fff', 'font-size': 14 }, pegs.get(k)));
    } else if (picked && jumpOf(picked[0], picked[1], r, c)) {
      g.append(el('circle', { cx: x, cy: y, r: S * 0.12, fill: '#2f6fb3' }));
    }
    svg.append(g);
  }
  $('stage').replaceChildren(svg);
  $('count').textContent = `${pegs.size} peg${pegs.size === 1 ? '' : 's'} left`;
  if (!solution && !canMove()) say(pegs.size === 1 ? 'Solved: one peg left!' : `No jump left: ${pegs.size} pegs remain.`, pegs.size === 1 ? 'ok' : '');
}

function click(r, c) {
  if (solution) stopSolution();
  if (picked && jump(picked[0], picked[1], r, c)) { picked = null; say(''); draw(); return; }
  picked = pegs.has(key(r, c)) ? [r, c] : null;
  draw();
}

function stopSolution() {
  if (timer) { clearInterval(timer); timer = null; }
  solution = null; $('player').hidden = true;
}

function showStep(i) {
  const s = solution;
  s.at = Math.max(0, Math.min(s.jumps.length, i));
  pegs = new Map(s.start); history = [];
  for (const [fr, fc, tr, tc] of s.jumps.slice(0, s.at)) jump(fr, fc, tr, tc);
  $('pat').textContent = `jump ${s.at} of ${s.jumps.length}`;
  draw();
}

function playSolution(r, start) {
  solution = { start, jumps: r.jumps, at: 0 };
  $('player').hidden = false;
  showStep(0);
}

async function load() {
  stopSolution();
  try { layout = await api('/peg/setup', source()); } catch (e) { say(e.message, 'bad'); return; }
  pegs = new Map(layout.pegs.map(([r, c, w]) => [key(r, c), w]));
  history = []; picked = null; say(''); draw();
}

$('board').addEventListener('change', load);
$('matrix').addEventListener('change', () => { if ($('board').value === 'weighted') load(); });
$('restart').addEventListener('click', load);
$('undo').addEventListener('click', () => { stopSolution(); if (history.length) { pegs = history.pop(); picked = null; say(''); draw(); } });
$('solve').addEventListener('click', async () => {
  stopSolution();
  say('Solving…');
  const start = new Map(pegs);
  try {
    const r = await api('/peg/solve', { ...source(), pegs: [...pegs.keys()].map((k) => k.split(',').map(Number)) });
    if (!r.jumps) { say(`No solution from here: ${r.reason}.`, 'bad'); return; }
    say(`A solution in ${r.jumps.length} jumps (${r.nodes} positions searched): step or play it.`, 'ok');
    playSolution(r, start);
  } catch (e) { say(e.message, 'bad'); }
});
$('best').addEventListener('click', async () => {
  await load();
  say('Searching…');
  const start = new Map(pegs);
  try {
    const r = await api('/peg/solve', { ...source(), objective: 'score' });
    say(`Contest score ${r.score}${r.optimal ? ' (optimal)' : ''} with ${r.pegs_left} peg(s) left, in ${r.jumps.length} jumps.`, 'ok');
    playSolution(r, start);
  } catch (e) { say(e.message, 'bad'); }
});
$('pprev').addEventListener('click', () => showStep(solution.at - 1));
$('pnext').addEventListener('click', () => showStep(solution.at + 1));
$('pplay').addEventListener('click', () => {
  if (timer) { clearInterval(timer); timer = null; $('pplay').textContent = 'play'; return; }
  if (solution.at >= solution.jumps.length) showStep(0);
  $('pplay').textContent = 'pause';
  timer = setInterval(() => {
    if (!solution || solution.at >= solution.jumps.length) { clearInterval(timer); timer = null; $('pplay').textContent = 'play'; return; }
    showStep(solution.at + 1);
  }, 350);
});
load();
