// The page's dice check (web/js/fairness.js) against the test vectors of
// docs/fairness.md, which were computed independently with Python.
// Run: node --experimental-detect-module --test scripts/browser/fairness.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyDice } from '../../web/js/fairness.js';

const ZERO = '00'.repeat(32);
const COMMIT = '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925';
const FACES = [1, 2, 5, 6];
const THROWS = [[2, 5, 1], [2, 1, 1], [6, 5, 6], [5, 1, 1]];

test('the test vectors verify', async () => {
  assert.deepEqual(await verifyDice({ commit: COMMIT, secret: ZERO, seeds: {}, faces: FACES, throws: THROWS }), { ok: true, count: 4 });
  const seeds = { yellow: 'alice', black: 'bob' };
  assert.deepEqual(await verifyDice({ commit: COMMIT, secret: ZERO, seeds, faces: FACES, throws: [[2, 6, 6]] }), { ok: true, count: 1 });
});

test('a seed counts from the throw it was given at', async () => {
  // Python: alice (Yellow) from throw 0, bob (Black) from throw 2.
  const seeds = { yellow: { seed: 'alice', from: 0 }, black: { seed: 'bob', from: 2 } };
  const throws = [[2, 2, 5], [5, 6, 6], [1, 1, 1], [5, 1, 1]];
  assert.deepEqual(await verifyDice({ commit: COMMIT, secret: ZERO, seeds, faces: FACES, throws }), { ok: true, count: 4 });
  // The same throws from number 2 on (dice that took over at throw 2).
  assert.deepEqual(await verifyDice({ commit: COMMIT, secret: ZERO, seeds, faces: FACES, throws: throws.slice(2), from: 2 }), { ok: true, count: 2 });
  const early = { yellow: 'alice', black: 'bob' };
  assert.equal((await verifyDice({ commit: COMMIT, secret: ZERO, seeds: early, faces: FACES, throws })).n, 0);
});

test('a wrong secret is refused', async () => {
  const r = await verifyDice({ commit: COMMIT, secret: '01'.repeat(32), seeds: {}, faces: FACES, throws: THROWS });
  assert.equal(r.reason, 'commitment');
});

test('a tampered throw is named', async () => {
  const bad = THROWS.map((t) => t.slice());
  bad[2] = [1, 1, 1];
  const r = await verifyDice({ commit: COMMIT, secret: ZERO, seeds: {}, faces: FACES, throws: bad });
  assert.equal(r.ok, false);
  assert.equal(r.n, 2);
  assert.deepEqual(r.expected, [6, 5, 6]);
});

test('malformed input is refused, not thrown', async () => {
  assert.equal((await verifyDice({ commit: 'x', secret: ZERO, faces: FACES, throws: [] })).reason, 'format');
  assert.equal((await verifyDice({ commit: COMMIT, secret: ZERO, faces: FACES, throws: null })).reason, 'format');
});
