// Ants (the 2011 AI Challenge) replays in the original engine's revision-3 format, drawn on a
// canvas: the whole map, or one player's view as the original visualizer's "green filter"
// (bright: what the player's ants see this turn; dim: what it saw before and remembers;
// dark: never seen). Positions are replayed from each ant's order string, on the torus.

import { el } from '/static/common.js';

const COLOURS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45', '#fabed4', '#469990'];
const STEP = { n: [-1, 0], s: [1, 0], e: [0, 1], w: [0, -1] };

export class AntsReplay {
  constructor(json) {
    const d = json.replaydata || json;
    if (d.revision !== undefined && d.revision !== 3) throw new Error(`Ants replay revision ${d.revision}: this viewer reads revision 3`);
    this.d = d;
    this.rows = d.map.rows; this.cols = d.map.cols;
    this.water = d.map.data.map((line) => Array.from(line, (ch) => ch === '%'));
    this.turns = d.turns || Math.max(...d.scores.map((s) => s.length)) - 1;
    this.players = Array.from({ length: d.players }, (_, i) => (json.playernames || [])[i] || '');
    this.view2 = d.viewradius2;
    this.memory = null;
  }

  /** The ants alive at `turn`: [row, col, owner]. */
  ants(turn) {
    const out = [];
    for (const [r0, c0, start, end, owner, orders] of this.d.ants) {
      if (turn < start || turn >= end) continue;
      let r = r0, c = c0;
      for (let t = 0; t < turn - start && t < orders.length; t++) {
        const s = STEP[orders[t]];
        if (s) { r = (r + s[0] + this.rows) % this.rows; c = (c + s[1] + this.cols) % this.cols; }
      }
      out.push([r, c, owner]);
    }
    return out;
  }

  /** Where the ants that died at `turn` stood on their last turn. */
  deaths(turn) {
    if (turn <= 0 || turn > this.turns) return [];
    const out = [];
    for (const [r0, c0, start, end, , orders] of this.d.ants) {
      if (end !== turn || end > this.turns) continue;
      let r = r0, c = c0;
      for (let t = 0; t < turn - 1 - start && t < orders.length; t++) {
        const s = STEP[orders[t]];
        if (s) { r = (r + s[0] + this.rows) % this.rows; c = (c + s[1] + this.cols) % this.cols; }
      }
      out.push([r, c]);
    }
    return out;
  }

  food(turn) { return this.d.food.filter(([, , start, end]) => turn >= start && turn < end); }

  /** The cells player `p`'s ants see at `turn`, as a Uint8Array of rows*cols. */
  sight(ants, p) {
    const seen = new Uint8Array(this.rows * this.cols);
    const R = Math.floor(Math.sqrt(this.view2));
    for (const [r, c, o] of ants) {
      if (o !== p) continue;
      for (let dr = -R; dr <= R; dr++) for (let dc = -R; dc <= R; dc++) {
        if (dr * dr + dc * dc > this.view2) continue;
        seen[((r + dr + this.rows) % this.rows) * this.cols + ((c + dc + this.cols) % this.cols)] = 1;
      }
    }
    return seen;
  }

  /** What player `p` has seen from turn 0 to `turn` (cached forward). */
  remembered(turn, p) {
    if (!this.memory || this.memory.p !== p || this.memory.turn > turn) {
      this.memory = { p, turn: -1, cells: new Uint8Array(this.rows * this.cols) };
    }
    for (let t = this.memory.turn + 1; t <= turn; t++) {
      const s = this.sight(this.ants(t), p);
      for (let i = 0; i < s.length; i++) this.memory.cells[i] |= s[i];
    }
    this.memory.turn = turn;
    return this.memory.cells;
  }

  /** A canvas of the map at `turn`, whole (`who` < 0) or as player `who` sees it. */
  draw(turn, who) {
    const k = Math.max(3, Math.min(8, Math.floor(900 / this.cols)));
    const canvas = el('canvas', { width: this.cols * k, height: this.rows * k, 'aria-label': `Ants map, turn ${turn}`, 'data-turn': turn, 'data-view': who });
    const g = canvas.getContext('2d');
    const ants = this.ants(turn);
    g.fillStyle = '#8a6d3b'; g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#1b3b6f';
    for (let r = 0; r < this.rows; r++) for (let c = 0; c < this.cols; c++) if (this.water[r][c]) g.fillRect(c * k, r * k, k, k);
    for (const [r, c, owner, end] of this.d.hills) {
      g.fillStyle = turn < end ? COLOURS[owner % 10] : '#555';
      g.globalAlpha = 0.6; g.fillRect((c - 1) * k, (r - 1) * k, 3 * k, 3 * k); g.globalAlpha = 1;
    }
    g.fillStyle = '#fff';
    for (const [r, c] of this.food(turn)) g.fillRect(c * k + 1, r * k + 1, k - 2, k - 2);
    // Battles: ants that died this turn (before the game's end), marked where they stood.
    g.strokeStyle = '#ff1744'; g.lineWidth = Math.max(1, k / 3);
    for (const [r, c] of this.deaths(turn)) {
      g.beginPath(); g.moveTo(c * k - k, r * k - k); g.lineTo(c * k + 2 * k, r * k + 2 * k);
      g.moveTo(c * k + 2 * k, r * k - k); g.lineTo(c * k - k, r * k + 2 * k); g.stroke();
    }
    for (const [r, c, o] of ants) {
      g.fillStyle = COLOURS[o % 10];
      g.beginPath(); g.arc(c * k + k / 2, r * k + k / 2, k / 2, 0, 2 * Math.PI); g.fill();
    }
    if (who >= 0) {
      const now = this.sight(ants, who), mem = this.remembered(turn, who);
      for (let r = 0; r < this.rows; r++) for (let c = 0; c < this.cols; c++) {
        const i = r * this.cols + c;
        if (now[i]) { g.fillStyle = 'rgba(0,255,0,0.18)'; }
        else if (mem[i]) { g.fillStyle = 'rgba(0,0,0,0.45)'; }
        else { g.fillStyle = 'rgba(0,0,0,0.85)'; }
        g.fillRect(c * k, r * k, k, k);
      }
    }
    const counts = this.players.map((_, p) => ants.filter((a) => a[2] === p).length);
    const caption = el('p', { id: 'antsInfo' }, `Turn ${turn} of ${this.turns}: `,
      this.players.map((n, p) => el('span', { style: `color:${COLOURS[p % 10]};font-weight:600` },
        `${p ? ' · ' : ''}${n || 'player ' + (p + 1)} ${counts[p]} ants, ${this.score(p, turn)} points`)));
    return el('div', {}, canvas, caption);
  }

  score(p, turn) { const s = this.d.scores[p]; return s[Math.min(turn, s.length - 1)]; }

  /** Ant counts (solid) and scores (dashed) per player over the game, as SVG. */
  plot() {
    const W = 700, H = 220, T = this.turns;
    const counts = this.players.map(() => new Array(T + 1).fill(0));
    for (const [, , start, end, owner] of this.d.ants) for (let t = start; t < Math.min(end, T + 1); t++) counts[owner][t]++;
    const maxA = Math.max(1, ...counts.flat()), maxS = Math.max(1, ...this.d.scores.flat());
    const x = (t) => 30 + (t * (W - 40)) / Math.max(1, T), y = (v, m) => H - 20 - (v * (H - 40)) / m;
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'ants and scores over time' });
    svg.append(el('line', { x1: 30, y1: H - 20, x2: W - 10, y2: H - 20, stroke: '#999' }));
    svg.append(el('text', { x: 2, y: 14, 'font-size': 11 }, `ants (max ${maxA}, solid) · score (max ${maxS}, dashed)`));
    this.players.forEach((_, p) => {
      const step = Math.max(1, Math.floor(T / 400));
      const pts = []; for (let t = 0; t <= T; t += step) pts.push(`${x(t)},${y(counts[p][t], maxA)}`);
      svg.append(el('polyline', { points: pts.join(' '), fill: 'none', stroke: COLOURS[p % 10], 'stroke-width': 1.5 }));
      const sp = this.d.scores[p].map((v, t) => `${x(t)},${y(v, maxS)}`).filter((_, t) => t % step === 0);
      svg.append(el('polyline', { points: sp.join(' '), fill: 'none', stroke: COLOURS[p % 10], 'stroke-dasharray': '4 3' }));
    });
    return svg;
  }
}
