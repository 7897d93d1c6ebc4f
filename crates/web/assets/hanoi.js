import { api, nav, el, say } from '/static/common.js';
nav();

const $ = (id) => document.getElementById(id);
let on = [];         // on[d]: 0-based peg of disc d, disc 0 the smallest
let moves = 0;
let picked = null;
let animating = false;

const pegs = () => Number($('pegs').value);
const discs = () => Number($('discs').value);
const target = () => Number($('target').value);
// The command line's text form: one 1-based peg per disc, largest first.
const text = () => on.slice().reverse().map((p) => p + 1).join(pegs() >= 10 ? ',' : '');
const tops = () => { const t = Array(pegs()).fill(null); on.forEach((p, d) => { if (t[p] === null) t[p] = d; }); return t; };
const solved = () => on.every((p) => p === target() - 1);

function fill(sel, from, to, value) {
  sel.replaceChildren(...Array.from({ length: to - from + 1 }, (_, i) => el('option', { value: from + i }, from + i)));
  sel.value = value;
}

function draw() {
  const P = pegs(), N = discs();
  const W = 200 * P, H = 40 + 22 * (N + 1);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'group', 'aria-label': 'pegs' });
  for (let p = 0; p < P; p++) {
    const x = 100 + 200 * p;
    const stack = on.map((q, d) => [q, d]).filter(([q]) => q === p).map(([, d]) => d).sort((a, b) => b - a);
    const g = el('g', {
      class: 'peg-hit' + (picked === p ? ' sel' : ''), tabindex: 0, role: 'button', 'data-peg': p + 1,
      'aria-label': `peg ${p + 1}, ${stack.length} discs`,
      onclick: () => pick(p), onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(p); } },
    });
    g.append(el('rect', { class: 'base', x: x - 95, y: 10, width: 190, height: H - 12, fill: 'transparent' }));
    g.append(el('rect', { x: x - 4, y: 24, width: 8, height: H - 36, fill: '#6b4f2a' }));
    g.append(el('rect', { x: x - 90, y: H - 14, width: 180, height: 8, fill: '#6b4f2a' }));
    stack.forEach((d, i) => {
      const w = 24 + (150 * (d + 1)) / N;
      g.append(el('rect', { x: x - w / 2, y: H - 14 - 22 * (i + 1), width: w, height: 20, rx: 6, fill: `hsl(${(d * 47) % 360} 60% 55%)`, stroke: '#333' }));
    });
    g.append(el('text', { x, y: 18, 'text-anchor': 'middle', 'font-size': 14 }, String(p + 1)));
    svg.append(g);
  }
  $('towers').replaceChildren(svg);
  $('counter').textContent = `Moves: ${moves}`;
  if (solved() && !animating) say(`Solved in ${moves} moves.`, 'ok');
  refreshOptimum();
}

let optimumSeq = 0;
async function refreshOptimum() {
  const seq = ++optimumSeq;
  try {
    const r = await api('/hanoi/solve', { pegs: pegs(), discs: discs(), from: text(), to: target() });
    if (seq !== optimumSeq) return;
    $('optimum').textContent = `optimum from here: ${r.length}${r.optimal ? '' : ' (best known)'}; from the start it was ${startOptimum}`;
  } catch (e) { $('optimum').textContent = 'optimum from here: ' + e.message; }
  if (pegs() === 3 && discs() <= 6) {
    $('graph').replaceChildren(el('img', { alt: 'state graph', src: `/api/hanoi/graph?discs=${discs()}&from=${text()}&to=${String(target()).repeat(discs())}`, style: 'max-width:100%;background:#fff' }));
  } else $('graph').replaceChildren(el('p', { class: 'muted' }, 'The graph is drawn for 3 pegs and up to 6 discs.'));
}

function legal(from, to) {
  const t = tops();
  return from !== to && t[from] !== null && (t[to] === null || t[to] > t[from]);
}

function pick(p) {
  if (animating) return;
  if (picked === null) {
    if (tops()[p] === null) { say(`Peg ${p + 1} is empty.`, 'bad'); return; }
    picked = p; say(`Peg ${p + 1} picked: now the peg to put it on.`); draw(); return;
  }
  const from = picked; picked = null;
  if (from === p) { say(''); draw(); return; }
  if (!legal(from, p)) { say(`A disc cannot go from peg ${from + 1} onto a smaller one on peg ${p + 1}.`, 'bad'); draw(); return; }
  on[tops()[from]] = p; moves++; say(''); draw();
}

async function showMe() {
  if (animating) return;
  picked = null;
  let r;
  try { r = await api('/hanoi/solve', { pegs: pegs(), discs: discs(), from: text(), to: target() }); }
  catch (e) { say(e.message, 'bad'); return; }
  animating = true;
  say(`Showing the ${r.length} moves…`);
  const delay = Math.max(15, Math.min(400, 10000 / Math.max(1, r.moves.length)));
  for (const [f, t] of r.moves) {
    on[tops()[f - 1]] = t - 1; moves++;
    draw();
    await new Promise((ok) => setTimeout(ok, delay));
  }
  animating = false;
  draw();
}

let startOptimum = '-';
let lastPegs = 3;
async function reset() {
  if (animating) return;
  const t = lastPegs !== pegs() ? pegs() : target();
  lastPegs = pegs();
  fill($('target'), 1, pegs(), t);
  on = Array(discs()).fill(0); moves = 0; picked = null; say('');
  try { startOptimum = (await api('/hanoi/solve', { pegs: pegs(), discs: discs(), from: 1, to: target() })).length; } catch { startOptimum = '-'; }
  draw();
}

fill($('discs'), 1, 10, 4);
fill($('pegs'), 3, 8, 3);
fill($('target'), 1, 3, 3);
for (const id of ['discs', 'pegs', 'target']) $(id).addEventListener('change', reset);
$('reset').addEventListener('click', reset);
$('showme').addEventListener('click', showMe);
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') return;
  const n = Number(e.key);
  if (n >= 1 && n <= pegs()) pick(n - 1);
});
reset();
