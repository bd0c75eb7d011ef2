// Puzzles in the browser: a person opens the first chaupar puzzle, clicks the
// best play's steps on the board, answers, and sees "correct" with the expert's
// ranking; the list then shows the puzzle solved (kept in localStorage). Done
// in English and in Russian, with a screenshot of each.
//
// The best play is asked of the server as a person who already knows it would
// write it ({"play": notation} from the shipped set), so the clicks are the
// board's own: a piece, then its target (and the choice when several steps end
// on one square).
//
// Usage: node puzzles.e2e.mjs BASE_URL OUT_DIR (see harness.mjs)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { base, out, click, newPage, runTests } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const shipped = JSON.parse(fs.readFileSync(path.join(here, '../../crates/server/data/puzzles/chaupar.json'), 'utf8'));

const same = (a, b) => ['colour', 'from', 'to', 'pieces', 'by', 'dice', 'declare'].every((k) => (a[k] ?? null) === (b[k] ?? null));

async function solveFirstPuzzle(lang) {
  const page = await newPage();
  await page.addInitScript((l) => localStorage.setItem('chaupar.lang', l), lang);
  await page.goto(`${base}/#/puzzles/chaupar/0`);
  await page.waitForSelector('#puzzle-task');
  const task = await page.textContent('#puzzle-task');
  const throwText = shipped.puzzles[0].throw.join(', ');
  if (!task.includes(throwText)) throw new Error(`the task does not show the throw ${throwText}: ${task}`);
  // The best play's steps, from its notation.
  const answer = await page.evaluate((best) => fetch('/api/puzzles/chaupar/0/answer', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ play: best }),
  }).then((r) => r.json()), shipped.puzzles[0].best);
  if (!answer.correct) throw new Error(`the shipped best play is not judged correct: ${JSON.stringify(answer)}`);
  const taken = [];
  for (const step of answer.best_steps) {
    // Which of the legal steps to this square it is (the order the page offers them).
    const turn = await page.evaluate((steps) => fetch('/api/puzzles/chaupar/0/try', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ steps }),
    }).then((r) => r.json()), taken);
    const options = turn.turn.legal.filter((s) => s.colour === step.colour && s.from === step.from && s.to === step.to);
    const i = options.findIndex((s) => same(s, step));
    if (i < 0) throw new Error(`step ${JSON.stringify(step)} is not legal now`);
    await click(page, `g.piece.movable[data-colour="${step.colour}"][data-progress="${step.from}"]`);
    await page.waitForSelector(`g.target[data-to="${step.to}"]`, { timeout: 3000 });
    await click(page, `g.target[data-to="${step.to}"]`);
    if (options.length > 1) {
      await page.waitForSelector('.modal .choice');
      await click(page, `.modal .choice[data-i="${i}"]`);
    }
    taken.push(step);
    await page.waitForFunction((n) => document.querySelector('#puzzle-undo') && !document.querySelector('#puzzle-undo').disabled && n > 0, taken.length);
    await page.waitForFunction(() => !document.querySelector('.target'));
  }
  await page.waitForSelector('#puzzle-done:not([disabled])');
  await click(page, '#puzzle-done');
  await page.waitForSelector('#puzzle-result');
  const correct = await page.getAttribute('#puzzle-result', 'data-correct');
  if (correct !== 'true') throw new Error(`the page says the best play is wrong: ${await page.textContent('#puzzle-result')}`);
  const heading = await page.textContent('#puzzle-result h3');
  const want = lang === 'ru' ? 'Верно' : 'Correct';
  if (!heading.includes(want)) throw new Error(`expected "${want}", saw "${heading}"`);
  const rows = await page.locator('#puzzle-ranking li').count();
  if (rows !== shipped.puzzles[0].ranking.length) throw new Error(`the ranking shows ${rows} plays`);
  const firstRow = await page.textContent('#puzzle-ranking li');
  if (!firstRow.includes(shipped.puzzles[0].best)) throw new Error(`the ranking does not start with the best play: ${firstRow}`);
  await page.screenshot({ path: path.join(out, `puzzle-solved-${lang}.png`) });
  // Remembered: the list ticks it.
  await page.goto(`${base}/#/puzzles/chaupar`);
  await page.waitForSelector('.puzzle-link[data-n="0"]');
  const link = await page.textContent('.puzzle-link[data-n="0"]');
  if (!link.startsWith('✔')) throw new Error(`the list does not show puzzle 1 solved: ${link}`);
  await page.screenshot({ path: path.join(out, `puzzles-list-${lang}.png`) });
  await page.context().close();
}

async function solvesAPuzzleInEnglish() { await solveFirstPuzzle('en'); }
async function solvesAPuzzleInRussian() { await solveFirstPuzzle('ru'); }

await runTests('puzzles', [solvesAPuzzleInEnglish, solvesAPuzzleInRussian]);
