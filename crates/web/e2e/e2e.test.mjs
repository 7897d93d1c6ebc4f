// End-to-end tests of `ply serve` in a real browser: Debian's headless Chromium driven by
// playwright-core (no browser is downloaded), against the real `ply` binary on a free loopback
// port. A failing test leaves a screenshot in e2e/screenshots/.
//
// Run: `npm ci && npm test` in this folder after `cargo build -p ply-cli` (scripts/test does
// both). PLY_BIN overrides the binary; CHROMIUM the browser (default /usr/bin/chromium).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const shots = path.join(here, 'screenshots');
const antsReplay = path.resolve(root, '../shared/data/ants/replays/json_r3.replay');
const bin = process.env.PLY_BIN ||
  path.join(process.env.CARGO_TARGET_DIR || path.join(root, 'target'), 'debug', 'ply');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';

let server, base, browser, tmp;

before(async () => {
  assert.ok(fs.existsSync(bin), `no ply binary at ${bin}: run cargo build -p ply-cli (or set PLY_BIN)`);
  assert.ok(fs.existsSync(browserPath), `no Chromium at ${browserPath}: apt-get install chromium`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ply-e2e-'));
  fs.mkdirSync(path.join(tmp, 'data', 'replays'), { recursive: true });
  if (fs.existsSync(antsReplay)) fs.copyFileSync(antsReplay, path.join(tmp, 'data', 'replays', 'json_r3.replay'));
  server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--db', path.join(tmp, 'data', 'arena.sqlite3'),
    '--data-dir', path.join(tmp, 'data')], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/serving on (http:\/\/[^/\s]+)\//);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`ply serve exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error('ply serve did not start in 20 s')), 20000);
  });
  browser = await chromium.launch({
    executablePath: browserPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs `body` on a fresh phone-or-desktop page; a failure saves a screenshot first. */
async function onPage(name, body, viewport = { width: 1100, height: 900 }) {
  // bypassCSP: the pages forbid eval, which waitForFunction needs; the pages themselves run under it.
  const page = await browser.newPage({ viewport, bypassCSP: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await body(page);
    assert.deepEqual(errors, [], 'errors in the page');
    if (process.env.PLY_E2E_SHOTS) {
      fs.mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: path.join(shots, `${name}.ok.png`), fullPage: true });
    }
  } catch (e) {
    fs.mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true }).catch(() => {});
    throw e;
  } finally {
    await page.close();
  }
}

test('a full tic-tac-toe game against the perfect AI ends in a draw or a loss', () =>
  onPage('tictactoe', async (page) => {
    await page.goto(`${base}/play?game=tictactoe`);
    await page.locator('#board button').nth(8).waitFor();
    await page.selectOption('#ai', 'perfect');
    await page.click('#new');
    for (let i = 0; i < 9; i++) {
      await page.waitForFunction(() => /Your move|Draw|wins|win!/.test(document.getElementById('status').textContent));
      const status = await page.textContent('#status');
      if (!status.startsWith('Your move')) break;
      // Click an empty square of the board (the first one offered).
      await page.locator('#board button.target').first().click();
      await page.waitForFunction(() => !/thinking/.test(document.getElementById('status').textContent));
    }
    const status = await page.textContent('#status');
    assert.match(status, /^(Draw\.|The AI wins\.)$/);
    assert.match(await page.textContent('#report'), /perfect played .* depth \d+/);
  }));

test('Hanoi: a move counts, "show me" finishes on the target', () =>
  onPage('hanoi', async (page) => {
    await page.goto(`${base}/hanoi`);
    await page.waitForFunction(() => /optimum from here: 15/.test(document.getElementById('optimum').textContent));
    await page.click('g[data-peg="1"]');
    await page.click('g[data-peg="2"]');
    await page.waitForFunction(() => document.getElementById('counter').textContent === 'Moves: 1');
    // 1 -> 2 is the optimal first move with 4 discs: 14 to go.
    await page.waitForFunction(() => /optimum from here: 14;/.test(document.getElementById('optimum').textContent));
    await page.click('g[data-peg="2"]');
    await page.click('g[data-peg="3"]');
    await page.waitForFunction(() => document.getElementById('counter').textContent === 'Moves: 2');
    await page.waitForFunction(() => /optimum from here: 15;/.test(document.getElementById('optimum').textContent));
    await page.click('#showme');
    await page.waitForFunction(() => /Solved in 17 moves/.test(document.getElementById('status').textContent), null, { timeout: 30000 });
    assert.equal(await page.getAttribute('g[data-peg="3"]', 'aria-label'), 'peg 3, 4 discs');
    // The keyboard moves discs too.
    await page.keyboard.press('3');
    await page.keyboard.press('1');
    await page.waitForFunction(() => document.getElementById('counter').textContent === 'Moves: 18');
  }));

test('Sudoku: a pasted puzzle is solved', () =>
  onPage('sudoku', async (page) => {
    await page.goto(`${base}/sudoku`);
    await page.fill('#puzzle', '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......');
    await page.click('#solve');
    await page.waitForFunction(() => /Solved/.test(document.getElementById('status').textContent));
    assert.match(await page.textContent('#status'), /unique/);
    const cells = await page.locator('#grid div').allTextContents();
    assert.equal(cells.join(''), '417369825632158947958724316825437169791586432346912758289643571573291684164875293');
    await page.click('#explain');
    await page.waitForFunction(() => /Next step|needs guessing/.test(document.getElementById('status').textContent));
  }, { width: 390, height: 844 }));

test('an Ants replay: one player\'s view, stepped to the end', { skip: !fs.existsSync(antsReplay) && `no ${antsReplay}` }, () =>
  onPage('ants', async (page) => {
    await page.goto(`${base}/replay?file=json_r3.replay`);
    await page.locator('canvas').waitFor({ timeout: 20000 });
    await page.selectOption('#who', '1');
    await page.locator('#next').click();
    await page.keyboard.press('End');
    await page.waitForFunction(() => /^1000 \/ 1000$/.test(document.getElementById('at').textContent));
    assert.equal(await page.getAttribute('canvas', 'data-view'), '1');
    assert.equal(await page.getAttribute('canvas', 'data-turn'), '1000');
    assert.match(await page.textContent('#antsInfo'), /Turn 1000 of 1000: bubbaAnt \d+ ants/);
    assert.equal(await page.locator('#plot svg polyline').count(), 6);
  }));

test('a tournament of built-ins started from the page shows its standings live', () =>
  onPage('tournament', async (page) => {
    await page.goto(`${base}/tournaments`);
    await page.locator('#bot-random').waitFor();
    await page.selectOption('#rounds', '2');
    await page.click('#go');
    await page.waitForFunction(() => /Tournament #\d+ started/.test(document.getElementById('status').textContent));
    await page.waitForFunction(() => /12 of 12 games played · finished/.test(document.getElementById('progress').textContent), null, { timeout: 60000 });
    assert.equal(await page.locator('#standings tr').count(), 4);
    assert.match(await page.textContent('#standings'), /±\d+/);
    assert.equal(await page.locator('#history polyline').count(), 3);
    assert.equal(await page.locator('#games a').count(), 12);
    await page.locator('#games a').first().click();
    await page.waitForFunction(() => /\d+ \/ \d+/.test(document.getElementById('at').textContent));
    await page.keyboard.press('End');
    assert.match(await page.textContent('#stage'), /Move \d+/);
  }));

test('an Ants tournament shows TrueSkill, places and seats, and its games open in the Ants viewer', () =>
  onPage('ants-tournament', async (page) => {
    // Played by `ply tournament ants` on the database the server reads, as from another terminal.
    const map = path.join(tmp, 'two.map');
    execFileSync(bin, ['ants', 'mapgen', '--players', '2', '--rows', '18', '--cols', '36', '--seed', '3', '-o', map]);
    execFileSync(bin, ['tournament', 'ants', '--map', map, '--bot', 'h=builtin:hunter', '--bot', 'r=builtin:random',
      '--bot', 'hold=builtin:hold', '--rounds', '2', '--turns', '30', '--db', path.join(tmp, 'data', 'arena.sqlite3')],
    { stdio: 'ignore' });
    const list = await (await fetch(`${base}/api/tournaments`)).json();
    const t = list.find((x) => x.game === 'ants');
    assert.equal(t.rating, 'trueskill');
    await page.goto(`${base}/tournaments?id=${t.id}`);
    await page.waitForFunction(() => /12 of 12 games played · finished/.test(document.getElementById('progress').textContent));
    const heads = await page.locator('#standings th').allTextContents();
    assert.deepEqual(heads, ['rank', 'bot', 'mu', 'sigma', 'mu − 3σ', 'games', 'mean place', '1st', '2nd']);
    assert.equal(await page.locator('#standings tr').count(), 4);
    // Each of three bots plays 4 of the 6 games of a round on a 2-player map.
    for (const row of await page.locator('#standings tr:not(:first-child)').all()) {
      assert.equal(await row.locator('td').nth(5).textContent(), '8');
    }
    assert.match(await page.textContent('#history-title'), /TrueSkill/);
    assert.equal(await page.isHidden('#h2h-section'), true);
    assert.equal(await page.locator('#history polyline').count(), 3);
    assert.equal(await page.locator('#games a').count(), 12);
    assert.match(await page.textContent('#games'), /h \([12]\), r \([12]\)/);
    await page.locator('#games a').first().click();
    await page.waitForFunction(() => !document.getElementById('antsControls').hidden);
    await page.waitForFunction(() => /^0 \/ \d+$/.test(document.getElementById('at').textContent));
    await page.keyboard.press('End');
    await page.waitForFunction(() => /^(\d+) \/ \1$/.test(document.getElementById('at').textContent));
  }));

test('peg solitaire: a jump by clicks, then the solver\'s answer played to one peg', () =>
  onPage('peg', async (page) => {
    await page.goto(`${base}/peg`);
    await page.waitForFunction(() => /32 pegs left/.test(document.getElementById('count').textContent));
    await page.click('g[data-hole="1,3"]');
    await page.click('g[data-hole="3,3"]');
    await page.waitForFunction(() => /31 pegs left/.test(document.getElementById('count').textContent));
    await page.click('#solve');
    await page.waitForFunction(() => /A solution in 30 jumps/.test(document.getElementById('status').textContent), null, { timeout: 30000 });
    await page.click('#pnext');
    await page.waitForFunction(() => /30 pegs left/.test(document.getElementById('count').textContent));
    await page.click('#pplay');
    await page.waitForFunction(() => /^1 peg left$/.test(document.getElementById('count').textContent), null, { timeout: 30000 });
  }, { width: 390, height: 844 }));

test('Block Breaker: the page loads, launches a ball and reacts to the arrow keys', () =>
  onPage('breaker', async (page) => {
    await page.goto(`${base}/breaker`);
    const field = page.locator('#field');
    await page.waitForFunction(() => document.getElementById('field').dataset.held === '1');
    await field.focus();
    const x0 = Number(await field.getAttribute('data-paddle-x'));
    await page.keyboard.down('ArrowLeft');
    await page.waitForFunction((x) => Number(document.getElementById('field').dataset.paddleX) < x - 200, x0);
    await page.keyboard.up('ArrowLeft');
    const x1 = Number(await field.getAttribute('data-paddle-x'));
    await page.keyboard.down('ArrowRight');
    await page.waitForFunction((x) => Number(document.getElementById('field').dataset.paddleX) > x + 200, x1);
    await page.keyboard.up('ArrowRight');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.getElementById('field').dataset.held === '0' && Number(document.getElementById('field').dataset.ballVy) < 0);
    const steps = async () => Number(await field.getAttribute('data-steps'));
    const s0 = await steps();
    await page.waitForTimeout(300);
    assert.ok((await steps()) > s0, 'the game runs');
    await page.keyboard.press('p');
    await page.waitForTimeout(100);
    const s1 = await steps();
    await page.waitForTimeout(300);
    assert.equal(await steps(), s1, 'P pauses');
    await page.keyboard.press('p');
    await page.waitForTimeout(300);
    assert.ok((await steps()) > s1, 'P resumes');
  }));
