import { api, nav, el, say } from '/static/common.js';
import { BALL, BRICK_H, BRICK_W, CAPSULE_H, CAPSULE_W, FIELD_H, FIELD_W, GRID_TOP, NET_H, NET_Y, POWERUPS, Sim, levelSeed, parseLevel } from '/static/breaker-sim.js';
nav();

const $ = (id) => document.getElementById(id);
const canvas = $('field'), g = canvas.getContext('2d');
const K = canvas.width / FIELD_W;
const HP = ['#000', '#4caf50', '#2196f3', '#9c27b0', '#ff9800', '#f44336', '#795548', '#607d8b', '#e91e63', '#3f51b5'];
let levels = [];
let number = 1;
let sim = null;
let paused = false;
const held = { left: false, right: false };
let launch = false;

function start(n, carry) {
  number = n;
  $('level').value = String(n);
  const seed = levelSeed(Number($('seed').value) || 0, n);
  sim = new Sim(parseLevel(levels[n - 1].text), seed, carry);
  paused = false;
  say('Space launches the ball.');
  canvas.focus();
}

function action() {
  if (launch) { launch = false; return 'launch'; }
  if (held.left && !held.right) return 'left';
  if (held.right && !held.left) return 'right';
  return 'stay';
}

function draw() {
  g.fillStyle = '#10141c'; g.fillRect(0, 0, canvas.width, canvas.height);
  sim.grid.forEach((row, r) => row.forEach((c, col) => {
    if (!c) return;
    const x = col * BRICK_W * K, y = (GRID_TOP + r * BRICK_H) * K;
    g.fillStyle = c.solid ? '#9e9e9e' : c.bonus ? '#ffd54f' : HP[c.hp % 10];
    g.fillRect(x + 1, y + 1, BRICK_W * K - 2, BRICK_H * K - 2);
    if (!c.solid && c.max > 1) { g.fillStyle = '#fff'; g.font = '12px sans-serif'; g.fillText(String(c.hp), x + BRICK_W * K / 2 - 3, y + BRICK_H * K / 2 + 4); }
  }));
  if (sim.timers[6] > 0) { g.fillStyle = '#26c6da'; g.fillRect(0, NET_Y * K, FIELD_W * K, Math.max(2, NET_H * K)); }
  const p = sim.paddle;
  g.fillStyle = sim.timers[4] > 0 ? '#8bc34a' : '#eceff1';
  g.fillRect(p.x * K, p.y * K, p.w * K, Math.max(4, p.h * K));
  g.fillStyle = sim.timers[5] > 0 ? '#ff7043' : '#fff';
  for (const b of sim.balls) g.fillRect(b.x * K, b.y * K, BALL * K, BALL * K);
  g.font = 'bold 12px sans-serif';
  for (const c of sim.capsules) {
    const [, letter, , , good] = POWERUPS[c.kind];
    g.fillStyle = good ? '#66bb6a' : '#ef5350';
    g.fillRect(c.x * K, c.y * K, CAPSULE_W * K, CAPSULE_H * K);
    g.fillStyle = '#000'; g.fillText(letter, (c.x + CAPSULE_W / 2) * K - 4, (c.y + CAPSULE_H) * K - 3);
  }
  if (paused) { g.fillStyle = 'rgba(0,0,0,.5)'; g.fillRect(0, 0, canvas.width, canvas.height); g.fillStyle = '#fff'; g.font = 'bold 28px sans-serif'; g.fillText('Paused (P)', canvas.width / 2 - 70, canvas.height / 2); }
  $('score').textContent = `Score ${sim.score}`;
  $('lives').textContent = `${sim.lives} ${sim.lives === 1 ? 'life' : 'lives'}`;
  $('name').textContent = `level ${number}: ${sim.name}`;
  $('effects').textContent = sim.effects().map(([n, t]) => `${n} ${Math.ceil(t / 60)} s`).join(', ');
  // For tests and tools: the state a person sees, as attributes.
  const b = sim.balls[0];
  canvas.dataset.paddleX = p.x;
  canvas.dataset.held = sim.balls.filter((x) => x.hold).length;
  canvas.dataset.ballVy = b ? b.vy : 0;
  canvas.dataset.status = ['playing', 'cleared', 'over'][sim.status];
  canvas.dataset.steps = sim.steps;
}

let last = null, acc = 0;
function frame(t) {
  if (last === null) last = t;
  acc = Math.min(acc + (t - last), 250);
  last = t;
  while (acc >= 1000 / 60) {
    acc -= 1000 / 60;
    if (!paused && sim.status === 0) {
      sim.step(action());
      if (sim.status === 1) say(number < levels.length ? `Level cleared! Space for level ${number + 1}.` : `Every level cleared! Final score ${sim.score}.`, 'ok');
      if (sim.status === 2) say(`Game over: ${sim.score} points. Space plays again.`, 'bad');
    }
  }
  draw();
  requestAnimationFrame(frame);
}

function key(e, down) {
  const k = e.key;
  if (k === 'ArrowLeft' || k === 'a' || k === 'A') held.left = down;
  else if (k === 'ArrowRight' || k === 'd' || k === 'D') held.right = down;
  else if (k === ' ' && down) {
    if (sim.status === 1 && number < levels.length) start(number + 1, sim.carry());
    else if (sim.status === 2) start(1);
    else launch = true;
  } else if ((k === 'p' || k === 'P') && down) { paused = !paused; say(paused ? 'Paused.' : ''); }
  else return;
  e.preventDefault();
}

levels = await api('/breaker/levels');
$('level').replaceChildren(...levels.map((l) => el('option', { value: l.number }, `${l.number}: ${parseLevel(l.text).name}`)));
$('level').addEventListener('change', () => start(Number($('level').value)));
$('restart').addEventListener('click', () => start(number));
$('seed').addEventListener('change', () => start(number));
document.addEventListener('keydown', (e) => { if (e.target.tagName !== 'INPUT' && e.target.tagName !== 'SELECT') key(e, true); });
document.addEventListener('keyup', (e) => key(e, false));
for (const [id, dir] of [['tleft', 'left'], ['tright', 'right']]) {
  const b = $(id);
  b.addEventListener('pointerdown', () => { held[dir] = true; });
  for (const ev of ['pointerup', 'pointerleave', 'pointercancel']) b.addEventListener(ev, () => { held[dir] = false; });
}
$('tlaunch').addEventListener('click', () => { launch = true; });
$('tpause').addEventListener('click', () => { paused = !paused; });
start(1);
requestAnimationFrame(frame);
