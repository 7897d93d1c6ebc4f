// Block Breaker's simulation, ported line for line from crates/breaker (field.rs, rng.rs,
// powerup.rs, physics.rs, sim.rs, level.rs) so that the browser plays exactly the game the
// terminal and the tests play. Integers throughout: every Rust `/` on i32/i64 is `q` (a
// truncating division; the operands stay far below 2^53, so doubles are exact), isqrt is
// exact, and SplitMix64 and the FNV-1a digest use BigInt. The golden trace of
// crates/breaker/tests/data/golden_trace.json is replayed by e2e/breaker.test.mjs, which
// compares every recorded digest: any drift from the Rust `Sim` fails that test.

const q = (a, b) => Math.trunc(a / b);
const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
function isqrt(n) {
  let r = Math.floor(Math.sqrt(n));
  while (r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

export const COL = 64, ROW = 128, SUB = 256, GRID_COLS = 13, GRID_MAX_ROWS = 12;
export const BRICK_W = 4 * COL, BRICK_H = ROW, FIELD_COLS = GRID_COLS * 4, FIELD_ROWS = 22;
export const FIELD_W = FIELD_COLS * COL, FIELD_H = FIELD_ROWS * ROW, GRID_TOP = 2 * ROW;
export const PADDLE_Y = 20 * ROW, PADDLE_H = q(ROW, 2), NET_Y = 21 * ROW + q(ROW, 2), NET_H = q(ROW, 4);
export const BALL = q(COL, 2), CAPSULE_W = 3 * COL, CAPSULE_H = q(ROW, 2), CAPSULE_FALL = 8;
export const BASE_SPEED = 20 * SUB, PADDLE_SPEED = 36;
export const PADDLE_NORMAL = 7 * COL, PADDLE_WIDE = 11 * COL, PADDLE_NARROW = 4 * COL;
const STICKY_HOLD = 180, SERVE_HOLD = 300, MAX_BALLS = 8, MAX_LIVES = 9, IDLE_NUDGE = 1500;

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const brickRect = (row, col) => ({ x: col * BRICK_W, y: GRID_TOP + row * BRICK_H, w: BRICK_W, h: BRICK_H });
const netRect = () => ({ x: 0, y: NET_Y, w: FIELD_W, h: NET_H });
const ballRect = (b) => ({ x: b.x, y: b.y, w: BALL, h: BALL });

const M64 = (1n << 64n) - 1n;
/** SplitMix64, as rng.rs. */
export class Rng {
  constructor(seed) { this.state = BigInt.asUintN(64, BigInt(seed)); }
  nextU64() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & M64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  below(n) { return Number(((this.nextU64() >> 32n) * BigInt(Math.max(1, n))) >> 32n); }
}

/** A level's own seed within a run (rng.rs `level_seed`). */
export function levelSeed(seed, level) {
  return new Rng(BigInt.asUintN(64, BigInt(seed)) ^ ((BigInt(level) * 0xd6e8feb86659fd93n) & M64)).nextU64();
}

// Power-ups in PowerUp::ALL order: [name, letter, weight, duration, good].
export const POWERUPS = [
  ['wide', 'W', 16, 1200, true], ['multi-ball', 'M', 14, 0, true], ['slow', 'S', 11, 600, true],
  ['sticky', 'C', 11, 900, true], ['extra life', 'L', 5, 0, true], ['fireball', 'F', 8, 480, true],
  ['net', 'N', 9, 1800, true], ['shrink', '-', 14, 900, false], ['fast', '!', 12, 600, false],
];
const [WIDE, MULTI, SLOW, STICKY, LIFE, FIRE, NET, SHRINK, FAST] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
function fromDraw(draw) {
  for (let k = 0; k < POWERUPS.length; k++) {
    if (draw < POWERUPS[k][2]) return k;
    draw -= POWERUPS[k][2];
  }
  return FAST;
}

/** A level file (level.rs's format; the texts come from the server or a trace). */
export function parseLevel(text) {
  const level = { name: '', speed: 100, drops: 15, rows: [] };
  let bricks = false;
  for (const raw of text.split('\n')) {
    const line = raw.split('#')[0].replace(/\s+$/, '');
    if (!line.trim()) continue;
    if (bricks) {
      const row = Array.from(line.slice(0, GRID_COLS), (ch) => {
        if (ch === 'X') return { solid: true };
        if (ch === '*') return { hp: 1, max: 1, bonus: true };
        if (ch >= '1' && ch <= '9') return { hp: Number(ch), max: Number(ch), bonus: false };
        return null;
      });
      while (row.length < GRID_COLS) row.push(null);
      if (level.rows.length < GRID_MAX_ROWS) level.rows.push(row);
      continue;
    }
    const i = line.indexOf(':');
    if (i < 0) throw new Error(`level: expected key: value in ${JSON.stringify(line)}`);
    const key = line.slice(0, i).trim(), value = line.slice(i + 1).trim();
    if (key === 'name') level.name = value;
    else if (key === 'speed') level.speed = Number(value);
    else if (key === 'drops') level.drops = Number(value);
    else if (key === 'bricks') bricks = true;
  }
  return level;
}

export function paddleBounce(offset, reach, speed) {
  reach = Math.max(reach, 1);
  const dx = clamp(q(offset * 1732, reach), -1732, 1732), dy = -1000;
  const len = isqrt(dx * dx + dy * dy);
  return [q(speed * dx, len), Math.min(q(speed * dy, len), -1)];
}

export function withSpeed(x, y, s) {
  const len = isqrt(x * x + y * y);
  let nx, ny;
  if (len === 0) { nx = 0; ny = -s; } else { nx = q(x * s, len); ny = q(y * s, len); }
  if (2 * Math.abs(ny) < s) {
    const signY = ny > 0 ? 1 : -1, signX = nx < 0 ? -1 : 1;
    ny = signY * q(s + 1, 2);
    nx = signX * isqrt(Math.max(s * s - ny * ny, 0));
  }
  return [nx, ny];
}

export function rotate(x, y, sign, small, speed) {
  const c = small ? 1014 : 928;
  const s = (small ? 143 : 433) * Math.sign(sign);
  return withSpeed(q(x * c - y * s, 1024), q(x * s + y * c, 1024), speed);
}

const floorDiv = (a, b) => Math.floor(a / b);

/** One ball's step through `world` (physics.rs `advance`); returns 'moved', 'paddle' or 'lost'. */
function advance(ball, world, contacts) {
  const tx = ball.fx + ball.vx, ty = ball.fy + ball.vy;
  const dx = floorDiv(tx, SUB), dy = floorDiv(ty, SUB);
  ball.fx = tx - dx * SUB; ball.fy = ty - dy * SUB;
  const nx = Math.abs(dx), ny = Math.abs(dy);
  let sx = Math.sign(dx), sy = Math.sign(dy), mx = 0, my = 0;
  while (mx < nx || my < ny) {
    const alongX = my >= ny ? true : mx >= nx ? false : (2 * mx + 1) * ny <= (2 * my + 1) * nx;
    if (alongX) {
      mx++;
      const u = unitMove(ball, world, sx, 0, contacts);
      if (u === 'blocked') { sx = -sx; ball.vx = -ball.vx; } else if (u !== 'free') return u;
    } else {
      my++;
      const u = unitMove(ball, world, 0, sy, contacts);
      if (u === 'blocked') { sy = -sy; ball.vy = -ball.vy; } else if (u !== 'free') return u;
      if (ball.y >= FIELD_H) return 'lost';
    }
  }
  return 'moved';
}

function unitMove(ball, world, ux, uy, contacts) {
  const next = { x: ball.x + ux, y: ball.y + uy, w: BALL, h: BALL };
  let blocked = false;
  if (next.x < 0 || next.x + BALL > FIELD_W || next.y < 0) { blocked = true; contacts.push({ kind: 'wall' }); }
  const rows = world.grid.length;
  const r0 = Math.max(floorDiv(next.y - GRID_TOP, BRICK_H), 0);
  const r1 = Math.min(floorDiv(next.y + BALL - 1 - GRID_TOP, BRICK_H), rows - 1);
  const c0 = Math.max(floorDiv(next.x, BRICK_W), 0);
  const c1 = Math.min(floorDiv(next.x + BALL - 1, BRICK_W), GRID_COLS - 1);
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = world.grid[r][c];
      if (!cell) continue;
      if (cell.solid) { blocked = true; contacts.push({ kind: 'steel' }); continue; }
      const broken = cell.hp <= 1 || world.pierce;
      world.grid[r][c] = broken ? null : { hp: cell.hp - 1, max: cell.max, bonus: cell.bonus };
      if (!world.pierce) blocked = true;
      contacts.push({ kind: 'brick', row: r, col: c, broken, max: cell.max, bonus: cell.bonus });
    }
  }
  if (world.net && overlaps(next, netRect())) { blocked = true; contacts.push({ kind: 'net' }); }
  const p = world.paddle;
  if (overlaps(next, p)) {
    const fromAbove = uy > 0 && ball.y + BALL <= p.y;
    if (fromAbove && !blocked) {
      const offset = next.x + q(BALL, 2) - (p.x + q(p.w, 2));
      contacts.push({ kind: 'paddle', offset });
      if (world.sticky) {
        ball.hold = { offset: ball.x - p.x, timer: STICKY_HOLD };
        ball.vx = 0; ball.vy = 0;
      } else {
        [ball.vx, ball.vy] = paddleBounce(offset, q(p.w, 2) + q(BALL, 2), world.speed);
      }
      ball.fx = 0; ball.fy = 0;
      return 'paddle';
    }
    blocked = true;
    contacts.push({ kind: 'paddleEdge' });
  }
  if (blocked) return 'blocked';
  ball.x = next.x; ball.y = next.y;
  return 'free';
}

export const STATUS = ['playing', 'cleared', 'game over'];

/** One level being played (sim.rs `Sim`). Actions: 'stay', 'left', 'right', 'launch'. */
export class Sim {
  constructor(level, seed, start = { lives: 3, score: 0 }) {
    this.name = level.name;
    this.baseSpeed = q(BASE_SPEED * clamp(level.speed, 50, 200), 100);
    this.drops = Math.min(level.drops, 100);
    this.grid = level.rows.map((row) => row.map((c) => (c ? { ...c } : null)));
    this.paddle = { x: q(FIELD_W - PADDLE_NORMAL, 2), y: PADDLE_Y, w: PADDLE_NORMAL, h: PADDLE_H };
    this.balls = [];
    this.capsules = [];
    this.timers = [0, 0, 0, 0, 0, 0, 0]; // wide, shrink, slow, fast, sticky, fire, net
    this.lives = clamp(start.lives, 1, MAX_LIVES);
    this.score = start.score;
    this.steps = 0;
    this.status = 0;
    this.rng = new Rng(seed);
    this.serve();
  }

  speed() {
    const [, , slow, fast] = this.timers;
    return slow > 0 ? q(this.baseSpeed * 60, 100) : fast > 0 ? q(this.baseSpeed * 140, 100) : this.baseSpeed;
  }
  targetWidth() { return this.timers[0] > 0 ? PADDLE_WIDE : this.timers[1] > 0 ? PADDLE_NARROW : PADDLE_NORMAL; }
  breakableLeft() { return this.grid.flat().filter((c) => c && !c.solid).length; }
  carry() { return { lives: Math.max(this.lives, 1), score: this.score }; }
  effects() {
    const kinds = [WIDE, SHRINK, SLOW, FAST, STICKY, FIRE, NET];
    return kinds.map((k, i) => [POWERUPS[k][0], this.timers[i]]).filter(([, n]) => n > 0);
  }
  world() {
    return { paddle: this.paddle, net: this.timers[6] > 0, pierce: this.timers[5] > 0, sticky: this.timers[4] > 0, speed: this.speed(), grid: this.grid };
  }

  step(action) {
    if (this.status !== 0) return;
    this.steps++;
    this.movePaddle(action);
    const speed = this.speed();
    for (let i = 0; i < this.balls.length; i++) {
      const h = this.balls[i].hold;
      if (!h) continue;
      h.timer = Math.max(0, h.timer - 1);
      if (action === 'launch' || h.timer === 0) this.launch(i, speed);
    }
    this.resizePaddle();
    this.moveBalls();
    this.moveCapsules();
    this.tickTimers();
    if (this.status === 0 && this.breakableLeft() === 0) {
      this.status = 1;
      this.score += 1000 + 250 * this.lives;
    }
  }

  serve() {
    const w = this.paddle.w;
    const jitter = this.rng.below(q(w, 2)) - q(w, 4);
    const offset = clamp(q(w, 2) - q(BALL, 2) + jitter, 0, w - BALL);
    this.balls.push({ x: this.paddle.x + offset, y: PADDLE_Y - BALL, fx: 0, fy: 0, vx: 0, vy: 0, hold: { offset, timer: SERVE_HOLD }, idle: 0 });
  }

  launch(i, speed) {
    const p = this.paddle, b = this.balls[i];
    const offset = b.x + q(BALL, 2) - (p.x + q(p.w, 2));
    [b.vx, b.vy] = paddleBounce(offset, q(p.w, 2) + q(BALL, 2), speed);
    b.fx = 0; b.fy = 0; b.hold = null; b.idle = 0;
  }

  freeBallIn(r) { return this.balls.some((b) => !b.hold && overlaps(ballRect(b), r)); }

  movePaddle(action) {
    const dir = action === 'left' ? -1 : action === 'right' ? 1 : 0;
    if (!dir) return;
    for (let i = 0; i < PADDLE_SPEED; i++) {
      const next = { ...this.paddle, x: this.paddle.x + dir };
      if (next.x < 0 || next.x + next.w > FIELD_W || this.freeBallIn(next)) break;
      this.paddle = next;
    }
    this.syncHeld();
  }

  syncHeld() {
    const p = this.paddle;
    for (const b of this.balls) {
      if (!b.hold) continue;
      b.hold.offset = clamp(b.hold.offset, 0, p.w - BALL);
      b.x = p.x + b.hold.offset; b.y = p.y - BALL;
    }
  }

  resizePaddle() {
    const w = this.targetWidth();
    if (w === this.paddle.w) return;
    const centre = this.paddle.x + q(this.paddle.w, 2);
    const next = { ...this.paddle, x: clamp(centre - q(w, 2), 0, FIELD_W - w), w };
    if (!this.freeBallIn(next)) { this.paddle = next; this.syncHeld(); }
  }

  moveBalls() {
    const balls = this.balls;
    this.balls = [];
    const kept = [];
    for (const ball of balls) {
      if (ball.hold) { kept.push(ball); continue; }
      const contacts = [];
      const travel = advance(ball, this.world(), contacts);
      ball.idle++;
      for (const c of contacts) this.scoreContact(c, ball);
      if (travel === 'lost') continue;
      if (ball.idle >= IDLE_NUDGE && !ball.hold) {
        const sign = this.rng.below(2) === 0 ? -1 : 1;
        [ball.vx, ball.vy] = rotate(ball.vx, ball.vy, sign, true, this.speed());
        ball.idle = 0;
      }
      kept.push(ball);
    }
    this.balls = kept;
    if (!this.balls.length) this.loseLife();
  }

  scoreContact(c, ball) {
    if (c.kind === 'brick') {
      ball.idle = 0;
      if (c.broken) {
        this.score += 10 + 20 * c.max + (c.bonus ? 50 : 0);
        if (c.bonus || this.rng.below(100) < this.drops) {
          const kind = fromDraw(this.rng.below(100));
          const b = brickRect(c.row, c.col);
          this.dropCapsule(kind, b.x + q(b.w - CAPSULE_W, 2), b.y);
        }
      } else this.score += 10;
    } else if (c.kind === 'paddle') ball.idle = 0;
    else if (c.kind === 'net' && this.timers[6] > 0) this.timers[6] = 0;
  }

  dropCapsule(kind, x, y) { this.capsules.push({ x: clamp(x, 0, FIELD_W - CAPSULE_W), y, kind }); }

  loseLife() {
    this.lives--;
    this.timers = [0, 0, 0, 0, 0, 0, this.timers[6]];
    if (this.lives === 0) this.status = 2;
    else { this.resizePaddle(); this.serve(); }
  }

  moveCapsules() {
    const caught = [];
    this.capsules = this.capsules.filter((c) => {
      c.y += CAPSULE_FALL;
      if (overlaps({ x: c.x, y: c.y, w: CAPSULE_W, h: CAPSULE_H }, this.paddle)) { caught.push(c.kind); return false; }
      return c.y < FIELD_H;
    });
    for (const kind of caught) { this.score += 25; this.apply(kind); }
  }

  apply(kind) {
    const old = this.speed(), d = POWERUPS[kind][3], t = this.timers;
    if (kind === WIDE) { t[0] = d; t[1] = 0; }
    else if (kind === SHRINK) { t[1] = d; t[0] = 0; }
    else if (kind === SLOW) { t[2] = d; t[3] = 0; }
    else if (kind === FAST) { t[3] = d; t[2] = 0; }
    else if (kind === STICKY) t[4] = d;
    else if (kind === FIRE) t[5] = d;
    else if (kind === NET) t[6] = d;
    else if (kind === LIFE) this.lives = Math.min(this.lives + 1, MAX_LIVES);
    else if (kind === MULTI) this.splitBalls();
    if (this.speed() !== old) this.rescaleBalls();
  }

  splitBalls() {
    const speed = this.speed(), p = this.paddle, extra = [];
    for (const b of this.balls) {
      const [vx, vy] = b.hold ? paddleBounce(b.x + q(BALL, 2) - (p.x + q(p.w, 2)), q(p.w, 2) + q(BALL, 2), speed) : [b.vx, b.vy];
      for (const sign of [-1, 1]) {
        const [nx, ny] = rotate(vx, vy, sign, false, speed);
        extra.push({ ...b, vx: nx, vy: ny, hold: null, idle: 0 });
      }
    }
    const room = Math.max(0, MAX_BALLS - this.balls.length);
    this.balls.push(...extra.slice(0, room));
  }

  rescaleBalls() {
    const speed = this.speed();
    for (const b of this.balls) if (!b.hold) [b.vx, b.vy] = withSpeed(b.vx, b.vy, speed);
  }

  tickTimers() {
    const old = this.speed();
    // sim.rs ticks in the order wide, shrink, slow, fast, sticky, fire, net: the array's.
    for (let i = 0; i < 7; i++) if (this.timers[i] > 0) this.timers[i]--;
    if (this.speed() !== old) this.rescaleBalls();
  }

  /** sim.rs `digest`: FNV-1a over the state, as 16 hex digits. */
  digest() {
    let h = 0xcbf29ce484222325n;
    const num = (v) => {
      let x = BigInt.asUintN(64, BigInt(v));
      for (let i = 0; i < 8; i++) { h ^= x & 0xffn; h = (h * 0x100000001b3n) & M64; x >>= 8n; }
    };
    num(this.steps); num(this.score); num(this.lives); num(this.status);
    num(this.paddle.x); num(this.paddle.w); num(this.balls.length);
    for (const b of this.balls) {
      for (const v of [b.x, b.y, b.fx, b.fy, b.vx, b.vy]) num(v);
      if (b.hold) { num(b.hold.offset); num(b.hold.timer); } else num(-1);
      num(b.idle);
    }
    num(this.capsules.length);
    for (const c of this.capsules) { num(c.x); num(c.y); num(c.kind); }
    for (const row of this.grid) for (const c of row) num(!c ? 0 : c.solid ? -1 : c.hp);
    for (const v of this.timers) num(v);
    num(this.rng.state);
    return h.toString(16).padStart(16, '0');
  }
}

/** A trace's run-length actions (`5r1f10s`) as action names. */
export function decodeActions(text) {
  const names = { s: 'stay', l: 'left', r: 'right', f: 'launch' };
  const out = [];
  for (const [, n, a] of text.matchAll(/(\d+)([slrf])/g)) for (let i = 0; i < Number(n); i++) out.push(names[a]);
  return out;
}
