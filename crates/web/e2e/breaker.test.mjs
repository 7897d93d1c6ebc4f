// The JavaScript port of Block Breaker (assets/breaker-sim.js) against the Rust simulation:
// it replays the golden trace that crates/breaker's own tests check (tests/trace.rs) and must
// reproduce every recorded state digest (one every 30 steps) and each level's result.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng, Sim, STATUS, decodeActions, levelSeed, parseLevel } from '../assets/breaker-sim.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const golden = JSON.parse(fs.readFileSync(path.resolve(here, '../../breaker/tests/data/golden_trace.json'), 'utf8'));

test('SplitMix64 matches the reference sequence (rng.rs)', () => {
  const r = new Rng(1234567);
  assert.equal(r.nextU64(), 6457827717110365317n);
  assert.equal(r.nextU64(), 3203168211198807973n);
  assert.equal(r.nextU64(), 9817491932198370423n);
  assert.equal(typeof levelSeed(7, 3), 'bigint');
});

for (const [i, ep] of golden.episodes.entries()) {
  test(`golden trace episode ${i + 1} (level ${ep.level}, seed ${ep.seed}) replays digest for digest`, () => {
    const sim = new Sim(parseLevel(ep.level_text), ep.seed, { lives: ep.lives, score: ep.score });
    const checkpoints = new Map(ep.checkpoints.map((c) => [c.step, c.digest]));
    let checked = 0;
    for (const action of decodeActions(ep.actions)) {
      sim.step(action);
      const want = checkpoints.get(sim.steps);
      if (want !== undefined) {
        assert.equal(sim.digest(), want, `digest after step ${sim.steps}`);
        checked++;
      }
    }
    assert.equal(checked, ep.checkpoints.length);
    assert.deepEqual(
      { status: STATUS[sim.status], steps: sim.steps, score: sim.score, lives: sim.lives },
      ep.result,
    );
  });
}
