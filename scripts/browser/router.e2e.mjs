// The router when the person moves on quickly: a page still loading (its
// fetches held back here) never draws over the page asked for after it, nor
// says an error there. Usage: node router.e2e.mjs BASE_URL OUT_DIR (see harness.mjs).
import path from 'node:path';
import { base, out, newPage, runTests } from './harness.mjs';

const HELD_MS = 1500;

// Holds back the first request whose address matches `pattern` (a RegExp) by HELD_MS; answers
// {through}: a promise that settles once that request has been let through.
async function holdFirst(page, pattern) {
  let held = false;
  let through;
  const done = new Promise((resolve) => { through = resolve; });
  await page.route(pattern, async (r) => {
    if (held) { await r.continue(); return; }
    held = true;
    await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    await r.continue().catch(() => {});
    through();
  });
  return { through: done };
}

// Waits until the slow page's answer has come and the page had time to draw.
async function settle(page, through) {
  await through;
  await page.waitForTimeout(500);
}

// From the lesson list (its lessons held back) on to the puzzles: the puzzles stay.
async function slowLessonsThenPuzzles() {
  const page = await newPage();
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#new-game');
  const { through } = await holdFirst(page, /\/api\/lessons$/);
  await page.evaluate(() => { location.hash = '#/learn'; });
  await page.waitForTimeout(200);
  await page.evaluate(() => { location.hash = '#/puzzles/chaupar'; });
  await page.waitForSelector('.puzzle-list');
  await settle(page, through);
  if (await page.locator('.lesson-list').count()) throw new Error('the lesson list drew over the puzzles');
  if (!(await page.locator('.puzzle-list').count())) throw new Error('the puzzles are gone');
  await page.screenshot({ path: path.join(out, 'router-puzzles.png') });
  await page.context().close();
  console.log('browser: router: a slow lesson list left for the puzzles does not draw over them');
}

// From a replay (its frames held back) on to the rules: the rules stay, with no
// replay slider or key handler of the replay left behind.
async function slowReplayThenRules() {
  const page = await newPage();
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#new-game');
  const seats = Object.fromEntries(['yellow', 'red', 'black', 'green'].map((c) => [c, { kind: 'person' }]));
  const g = await page.evaluate((body) => fetch('/api/games', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  }).then((r) => r.json()), { preset: 'chaupar', seats });
  if (!g.id) throw new Error(`no game made: ${JSON.stringify(g)}`);
  const { through } = await holdFirst(page, new RegExp(`/api/games/${g.id}/replay$`));
  await page.evaluate((id) => { location.hash = `#/replay/${id}`; }, g.id);
  await page.waitForTimeout(200);
  await page.evaluate(() => { location.hash = '#/rules/chaupar'; });
  await page.waitForSelector('.rules .summary li');
  await settle(page, through);
  if (await page.locator('input[type=range]').count()) throw new Error('the replay drew over the rules');
  if (!(await page.locator('.rules .summary').count())) throw new Error('the rules are gone');
  await page.context().close();
  console.log('browser: router: a slow replay left for the rules does not draw over them');
}

// Back and forth between two slow pages: the last one asked for is the one shown.
async function lastAskedIsShown() {
  const page = await newPage();
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#new-game');
  const { through: lessons } = await holdFirst(page, /\/api\/lessons$/);
  const { through: puzzles } = await holdFirst(page, /\/api\/puzzles\?rules=/);
  await page.evaluate(() => { location.hash = '#/puzzles/chaupar'; });
  await page.waitForTimeout(100);
  await page.evaluate(() => { location.hash = '#/learn'; });
  await page.waitForTimeout(100);
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('#new-game');
  await settle(page, Promise.all([lessons, puzzles]));
  if (await page.locator('.lesson-list, .puzzle-list').count()) throw new Error('a page left while loading drew over the lobby');
  if (!(await page.locator('#new-game').count())) throw new Error('the lobby is gone');
  await page.context().close();
  console.log('browser: router: two slow pages left for the lobby leave it shown');
}

await runTests('router', [slowLessonsThenPuzzles, slowReplayThenRules, lastAskedIsShown]);
