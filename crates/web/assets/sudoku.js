import { api, nav, el, say } from '/static/common.js';
nav();

const $ = (id) => document.getElementById(id);

function request(extra = {}) {
  const body = { puzzle: $('puzzle').value, ...extra };
  if ($('box').value.trim()) body.box = $('box').value.trim();
  return body;
}

/** The cells of the puzzle as typed (values only), for drawing. */
function typedCells() {
  return $('puzzle').value.split('\n').map((l) => l.split('#')[0]).join('')
    .replace(/[\s|+\-_]/g, '').split('').map((c) => (c === '0' ? '.' : c));
}

function draw(solution, highlight = new Set(), placed = new Map()) {
  const clues = typedCells();
  const cells = solution ? solution.split('') : clues;
  const side = Math.round(Math.sqrt(cells.length));
  if (side * side !== cells.length) return;
  let br = Math.floor(Math.sqrt(side)); while (side % br) br--;
  const bc = side / br;
  const grid = $('grid');
  grid.style.gridTemplateColumns = `repeat(${side}, 1fr)`;
  grid.replaceChildren(...cells.map((v, i) => {
    const r = Math.floor(i / side), c = i % side;
    const clue = clues[i] && clues[i] !== '.';
    const shown = placed.get(i) || (v === '.' || v === '0' ? '' : v);
    const style = `border-top:${r % br === 0 ? 2 : 1}px solid ${r % br === 0 ? '#1d2330' : '#ccc'};border-left:${c % bc === 0 ? 2 : 1}px solid ${c % bc === 0 ? '#1d2330' : '#ccc'}`;
    return el('div', { class: (clue ? 'clue' : 'found') + (highlight.has(i) ? ' hint' : ''), style, 'data-cell': i }, shown);
  }));
}

async function run(button, f) {
  $(button).disabled = true;
  try { await f(); } catch (e) { say(e.message, 'bad'); }
  $(button).disabled = false;
}

$('solve').addEventListener('click', () => run('solve', async () => {
  const r = await api('/sudoku/solve', request());
  if (!r.solution) { say('No solution.', 'bad'); draw(null); return; }
  say(r.unique ? 'Solved: the solution is unique.' : 'Solved, but the puzzle has more than one solution (this is one).', 'ok');
  draw(r.solution);
  $('why').textContent = `${r.guesses} guesses.`;
}));

$('count').addEventListener('click', () => run('count', async () => {
  const r = await api('/sudoku/count', request({ limit: 1000 }));
  say(r.at_least ? `At least ${r.count} solutions.` : `${r.count} solution${r.count === 1 ? '' : 's'}.`, r.count === 1 ? 'ok' : '');
}));

$('explain').addEventListener('click', () => run('explain', async () => {
  const r = await api('/sudoku/explain', request());
  const step = r.steps[0];
  if (!step) { say(r.ending === 'solved' ? 'The puzzle is already solved.' : `No human technique applies (${r.ending}): it needs guessing.`); return; }
  const side = Math.round(Math.sqrt(typedCells().length));
  const placed = new Map(step.placed.map((p) => [(p.cell.row - 1) * side + p.cell.col - 1, p.value]));
  say(`Next step: ${step.technique}.`, 'ok');
  $('why').textContent = step.reason + (step.placed.length ? '' : ` (${step.removed} candidates removed)`) + `. Grade of the puzzle: ${r.grade}.`;
  draw(null, new Set(placed.keys()), placed);
  // Apply the placement to the text, so that pressing again explains the step after.
  if (placed.size) {
    const cells = typedCells();
    for (const [i, v] of placed) cells[i] = v;
    $('puzzle').value = cells.join('');
  }
}));

$('generate').addEventListener('click', () => run('generate', async () => {
  say('Generating…');
  const r = await api('/sudoku/generate', { size: Number($('size').value), difficulty: $('difficulty').value });
  $('puzzle').value = r.puzzle; $('box').value = '';
  say(`A ${r.grade} puzzle with ${r.clues} clues${r.matched ? '' : ` (no ${$('difficulty').value} one in ${r.attempts} tries)`}; seed ${r.seed}.`, 'ok');
  $('why').textContent = '';
  draw(null);
}));

$('puzzle').addEventListener('input', () => draw(null));
draw(null);
