// The game page says why a clicked piece cannot move at all (POST
// /api/games/{id}/check with {"seat", "piece"}), with a link to its rule, as it
// does for a refused move; in Russian too; and a watcher is told nothing.
// Usage: node stuck.e2e.mjs BASE_URL OUT_DIR (see harness.mjs).
import path from 'node:path';
import { base, click, out, newPage, runTests } from './harness.mjs';

// A game of persons made from the page, its tokens kept where the page keeps them.
async function personGame(page, seed) {
  return page.evaluate((b) => fetch('/api/games', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b),
  }).then((r) => r.json()).then((g) => {
    localStorage.setItem(`chaupar.tokens.${g.id}`, JSON.stringify({ owner: g.owner_token, seats: g.seat_tokens, invites: g.invites || {} }));
    return g;
  }), { preset: 'chaupar', seed, delay_ms: 0 });
}

// The toast's words and its link, once it shows.
async function toastSaid(page) {
  await page.waitForSelector('#toast.show .msg');
  const text = await page.locator('#toast .msg').textContent();
  const link = page.locator('#toast a.rule');
  return { text, href: (await link.count()) ? await link.getAttribute('href') : null };
}

async function stuckPiecesSayWhy() {
  const page = await newPage();
  await page.goto(`${base}/#/`);
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  const g = await personGame(page, 3);
  await page.goto(`${base}/#/game/${g.id}`);
  await page.reload();
  await page.waitForSelector('#throw');
  await click(page, '#throw');
  await page.waitForSelector('svg.board .piece.movable');
  // A piece of a colour whose part of the turn this is not.
  const other = ['yellow', 'red', 'black', 'green'].find((c) => c !== g.to_move);
  await click(page, `svg.board .piece[data-colour="${other}"]`);
  let said = await toastSaid(page);
  if (!/do not move now/.test(said.text)) throw new Error(`another colour's piece: "${said.text}"`);
  if (said.href !== '#/rules/chaupar/throw') throw new Error(`the rule's link is ${said.href}`);
  await page.screenshot({ path: path.join(out, 'game-stuck-en.png') });
  // The same in Russian.
  await click(page, '#lang');
  await page.waitForSelector('svg.board .piece.movable');
  await page.evaluate(() => { document.getElementById('toast').className = ''; });
  await click(page, `svg.board .piece[data-colour="${other}"]`);
  said = await toastSaid(page);
  if (!/сейчас не ходят/.test(said.text)) throw new Error(`in Russian: "${said.text}"`);
  if (said.href !== '#/rules/chaupar/throw') throw new Error(`the Russian rule's link is ${said.href}`);
  await click(page, '#lang');
  // The rule's link opens the rule.
  await page.waitForSelector('svg.board .piece.movable');
  await page.evaluate(() => { document.getElementById('toast').className = ''; });
  await click(page, `svg.board .piece[data-colour="${other}"]`);
  await toastSaid(page);
  await click(page, '#toast a.rule');
  await page.waitForSelector('.doc .linked');
  await page.context().close();
  console.log('browser: stuck: a piece that cannot move says why, with its rule, in English and Russian');
}

// A whole throw used up: the mover's other pieces are told the turn is over.
async function noPointsLeft() {
  const page = await newPage();
  await page.goto(`${base}/#/`);
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  const g = await personGame(page, 3);
  const mover = g.to_move;
  await page.goto(`${base}/#/game/${g.id}`);
  await page.reload();
  await page.waitForSelector('#throw');
  await click(page, '#throw');
  await page.waitForSelector('svg.board .piece.movable');
  // The step that uses the whole throw, taken through the API as the page's seat.
  const left = await page.evaluate(async ({ id, seat }) => {
    const token = JSON.parse(localStorage.getItem(`chaupar.tokens.${id}`)).seats[seat];
    const game = await fetch(`/api/games/${id}`).then((r) => r.json());
    const total = game.turn.throw.reduce((a, b) => a + b, 0);
    const step = game.turn.legal.find((s) => s.by === total);
    const r = await fetch(`/api/games/${id}/step`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ seat, step }),
    }).then((x) => x.json());
    return r.position.pieces[seat].filter((p) => p !== step.to);
  }, { id: g.id, seat: mover });
  await page.waitForFunction(() => !document.querySelector('svg.board .piece.movable'));
  await click(page, `svg.board .piece[data-colour="${mover}"][data-progress="${left[0]}"]`);
  const said = await toastSaid(page);
  if (!/turn is over/.test(said.text)) throw new Error(`a piece with no points left: "${said.text}"`);
  await page.context().close();
  console.log('browser: stuck: with the throw used up, a piece is told the turn is over');
}

// Someone watching (no seat's token) clicks a piece: nothing is asked or said.
async function watcherIsToldNothing() {
  const page = await newPage();
  await page.goto(`${base}/#/`);
  const g = await personGame(page, 3);
  await page.evaluate(async ({ id, seat }) => {
    const t = JSON.parse(localStorage.getItem(`chaupar.tokens.${id}`));
    await fetch(`/api/games/${id}/throw`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${t.seats[seat]}` },
      body: JSON.stringify({ seat }),
    });
    localStorage.removeItem(`chaupar.tokens.${id}`);
  }, { id: g.id, seat: g.to_move });
  let checks = 0;
  page.on('request', (r) => { if (r.url().endsWith('/check')) checks += 1; });
  await page.goto(`${base}/#/game/${g.id}`);
  await page.reload();
  await page.waitForSelector('svg.board .piece');
  await click(page, 'svg.board .piece');
  await page.waitForTimeout(500);
  if (checks) throw new Error(`a watcher's click asked the server ${checks} times`);
  if (await page.locator('#toast.show').count()) throw new Error('a watcher was told something');
  await page.context().close();
  console.log('browser: stuck: a watcher clicking a piece is told nothing');
}

await runTests('stuck', [stuckPiecesSayWhy, noPointsLeft, watcherIsToldNothing]);
