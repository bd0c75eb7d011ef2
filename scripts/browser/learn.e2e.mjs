// The lessons (#/learn) in headless Chromium: three lessons completed by clicking
// pieces and targets on the board (the steps of a correct play, taken from the
// answer API, but clicked, not played by "show me"), a wrong play told why and
// tried again, a refused move told why, the done marks kept after a reload,
// "show me", and screenshots in English and Russian; a lesson in progress that
// keeps its board, steps and verdict when the language is switched; a click
// on a piece that cannot move told the engine's reason with a link to its rule.
//
// Usage: node learn.e2e.mjs BASE_URL OUT_DIR (see harness.mjs)
import path from 'node:path';
import { base, out, click, newPage, runTests } from './harness.mjs';

// Clicks one step on the board: the unit, then its destination (and, when the
// page asks which of several steps, the one meant).
async function clickStep(page, s) {
  const piece = `.piece.movable[data-colour="${s.colour}"][data-progress="${s.from}"]`;
  await page.waitForSelector(piece, { timeout: 5000 });
  await click(page, piece);
  const target = `.target[data-to="${s.to}"]`;
  await page.waitForSelector(target, { timeout: 5000 });
  await click(page, target);
  if (await page.locator('.modal .choice').count()) {
    const want = s.declare === 'super' ? /super|супер/i : s.declare === 'block' ? /block|блок/i : null;
    const choices = page.locator('.modal .choice');
    const n = await choices.count();
    let picked = false;
    for (let i = 0; i < n && !picked; i++) {
      const text = await choices.nth(i).textContent();
      if (!want || want.test(text)) { await choices.nth(i).click(); picked = true; }
    }
    if (!picked) throw new Error(`no choice for ${JSON.stringify(s)}`);
  }
}

async function solveByClicking(page, id) {
  await page.goto(`${base}/#/learn/${id}`);
  await page.waitForSelector(`.learn-lesson[data-lesson="${id}"] svg.board`);
  const answer = await page.evaluate((l) => fetch(`/api/lessons/${l}/answer`).then((r) => r.json()), id);
  if (!answer.steps || !answer.steps.length) throw new Error(`${id}: no answer`);
  let taken = 0;
  for (const s of answer.steps) {
    await clickStep(page, s);
    taken++;
    // The step is taken when the list of steps shows it (or the verdict came).
    await page.waitForFunction((n) => document.querySelectorAll('.side ol.small li').length >= n || document.querySelector('.verdict.ok, .verdict.bad'), taken, { timeout: 5000 });
  }
  await page.waitForSelector('.verdict.ok', { timeout: 5000 });
}

async function threeLessonsByClicking() {
  const page = await newPage();
  await page.goto(`${base}/#/learn`);
  await page.waitForSelector('.lesson-list');
  const listed = await page.locator('li.lesson').count();
  if (listed < 12) throw new Error(`only ${listed} lessons listed`);
  if (await page.locator('li.lesson.done').count()) throw new Error('a fresh browser has lessons done');
  // A header link leads here.
  if (!(await page.locator('nav a[href="#/learn"]').count())) throw new Error('no Learn link in the navigation');
  await page.screenshot({ path: path.join(out, 'learn-list-en.png') });

  await solveByClicking(page, 'split-the-total');
  await page.screenshot({ path: path.join(out, 'learn-solved-en.png') });
  await solveByClicking(page, 'capture-by-size');
  await solveByClicking(page, 'declare-super');

  // A play that misses the task is told why, and may be tried again.
  await page.goto(`${base}/#/learn/team-win`);
  await page.waitForSelector('.learn-lesson[data-lesson="team-win"] svg.board');
  await click(page, '#end'); // decline the finished partner's throw
  await page.waitForSelector('.verdict.bad');
  const why = await page.locator('.verdict.bad').textContent();
  if (!/won|победил/.test(why)) throw new Error(`the verdict does not say why: ${why}`);
  await page.screenshot({ path: path.join(out, 'learn-failed-en.png') });
  await click(page, '#again');
  await page.waitForSelector('.piece.movable');
  await clickStep(page, { colour: 'yellow', from: 83, to: 84 });
  await page.waitForSelector('.verdict.ok');

  // The marks stay after a reload.
  await page.goto(`${base}/#/learn`);
  await page.reload();
  await page.waitForSelector('.lesson-list');
  for (const id of ['split-the-total', 'capture-by-size', 'declare-super', 'team-win']) {
    if (!(await page.locator(`li.lesson.done[data-lesson="${id}"] .done-mark`).count())) throw new Error(`${id} is not marked done after a reload`);
  }
  const progress = await page.locator('#learn-progress').textContent();
  if (!progress.startsWith('4 ')) throw new Error(`progress says ${progress}`);
  await page.screenshot({ path: path.join(out, 'learn-done-en.png') });

  // In Russian: the list and a lesson.
  await click(page, '#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'ru' && document.querySelector('.lesson-list'));
  const title = await page.locator('.learn h1').textContent();
  if (title !== 'Уроки') throw new Error(`the list is not in Russian: ${title}`);
  await page.screenshot({ path: path.join(out, 'learn-list-ru.png') });
  await page.goto(`${base}/#/learn/blockade`);
  await page.waitForSelector('.learn-lesson svg.board');
  const task = await page.locator('#task').textContent();
  if (!/Срубите/.test(task)) throw new Error(`the task is not in Russian: ${task}`);
  await click(page, '#hint');
  await page.screenshot({ path: path.join(out, 'learn-lesson-ru.png') });
  await page.context().close();
}

async function showMePlaysTheAnswerWithoutMarkingItDone() {
  const page = await newPage();
  await page.goto(`${base}/#/learn/tohd`);
  await page.waitForSelector('.learn-lesson svg.board');
  // A move the rules refuse (24 to 37: 13 points, only 11 thrown) is told why.
  const geo = await page.evaluate(() => fetch('/api/board').then((r) => r.json()));
  await click(page, '.piece.movable[data-colour="yellow"][data-progress="24"]');
  await click(page, `rect.sq[data-rc="${geo.tracks.yellow[37].join(',')}"]`);
  await page.waitForSelector('#toast.show.bad', { timeout: 5000 });
  const why = await page.locator('#toast').textContent();
  if (!/\d/.test(why)) throw new Error(`the refusal does not say why: ${why}`);
  await click(page, '#show-me');
  await page.waitForSelector('.verdict.ok', { timeout: 10000 });
  await page.goto(`${base}/#/learn`);
  await page.waitForSelector('.lesson-list');
  if (await page.locator('li.lesson.done[data-lesson="tohd"]').count()) throw new Error('"show me" marked the lesson done');
  await page.context().close();
}

// Opens `url` in English (set, then the page loaded afresh: a page still
// loading is never overtaken by another).
async function inEnglish(page, url) {
  await page.goto(url);
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  await page.reload();
}

// The board as the page shows it: every unit's colour, progress and count.
const boardUnits = (page) => page.$$eval('svg.board .piece', (ps) => ps.map((g) => `${g.dataset.colour}:${g.dataset.progress}x${g.dataset.count}`).sort().join(' '));

async function lessonSurvivesLanguageSwitch() {
  const page = await newPage();
  const id = 'split-the-total';
  await inEnglish(page, `${base}/#/learn/${id}`);
  await page.waitForSelector(`.learn-lesson[data-lesson="${id}"] svg.board`);
  const answer = await page.evaluate((l) => fetch(`/api/lessons/${l}/answer`).then((r) => r.json()), id);
  if (answer.steps.length < 2) throw new Error(`${id}: the answer has ${answer.steps.length} steps; a lesson of two or more is needed`);
  const start = await boardUnits(page);
  // One step taken, the hint open: the language switched keeps them all.
  await clickStep(page, answer.steps[0]);
  await page.waitForFunction(() => document.querySelectorAll('.side ol.small li').length === 1);
  await click(page, '#hint');
  const before = { units: await boardUnits(page), left: await page.locator('#left').textContent() };
  if (before.units === start) throw new Error('the step did not move the board');
  await click(page, '#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'ru' && document.querySelector('.learn-lesson svg.board'));
  await page.waitForFunction(() => document.querySelectorAll('.side ol.small li').length === 1, null, { timeout: 5000 });
  const after = { units: await boardUnits(page), left: await page.locator('#left').textContent() };
  if (after.units !== before.units) throw new Error(`the board changed with the language:\n  ${before.units}\n  ${after.units}`);
  if (!/\d/.test(after.left) || after.left.replace(/\D/g, '') !== before.left.replace(/\D/g, '')) throw new Error(`what is left changed: ${before.left} / ${after.left}`);
  if (await page.locator('#undo').isDisabled()) throw new Error('undo is off after the switch: the step is lost');
  if (await page.locator('.hint-text').isHidden()) throw new Error('the hint closed with the switch');
  if (!/Подсказка|подсказ/i.test(await page.locator('#hint').textContent())) throw new Error('the lesson is not in Russian');
  // The rest of the play, then the verdict stays through two more switches.
  for (const s of answer.steps.slice(1)) await clickStep(page, s);
  await page.waitForSelector('.verdict.ok', { timeout: 5000 });
  await click(page, '#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.waitForSelector('.verdict.ok', { timeout: 5000 });
  const solved = await page.locator('.verdict.ok').textContent();
  if (!solved.includes("the task is solved")) throw new Error(`the verdict after the switch: ${solved}`);
  if ((await boardUnits(page)) === start) throw new Error('the board went back to the start');
  await page.screenshot({ path: path.join(out, 'learn-switched-en.png') });
  // Another page and back: the lesson starts afresh.
  await page.goto(`${base}/#/learn`);
  await page.waitForSelector('.lesson-list');
  await page.goto(`${base}/#/learn/${id}`);
  await page.waitForSelector(`.learn-lesson[data-lesson="${id}"] .piece.movable`);
  if ((await boardUnits(page)) !== start) throw new Error('the lesson did not start afresh after leaving it');
  if (await page.locator('.verdict.ok').count()) throw new Error('an old verdict shows on a fresh lesson');
  await page.context().close();
}

// Clears the toast, does `act` (a click), waits for the toast of a refusal and
// answers {text, href} (href of its rule link, or null).
async function refusal(page, act) {
  await page.evaluate(() => { const box = document.getElementById('toast'); box.className = ''; box.replaceChildren(); });
  await act();
  await page.waitForFunction(() => { const box = document.querySelector('#toast.show.bad .msg'); return box && box.textContent; }, null, { timeout: 5000 });
  const link = page.locator('#toast a.rule');
  return { text: await page.locator('#toast .msg').textContent(), href: (await link.count()) ? await link.getAttribute('href') : null };
}

async function refusedClicksSayWhy() {
  const page = await newPage();
  await inEnglish(page, `${base}/#/learn/team-order`);
  await page.waitForSelector('.learn-lesson svg.board .piece.movable', { state: 'attached' });
  // The piece next to home cannot move before Black is home: team order, linked.
  const stuck = '.piece[data-colour="yellow"][data-progress="83"]';
  if (await page.locator(`${stuck}.movable`).count()) throw new Error('the piece at 83 is movable');
  let r = await refusal(page, () => page.locator(stuck).dispatchEvent('click'));
  if (!/Black pieces must be home first/.test(r.text)) throw new Error(`the stuck piece is not told team order: ${r.text}`);
  if (r.href !== '#/rules/chaupar/order') throw new Error(`the rule link: ${r.href}`);
  await page.screenshot({ path: path.join(out, 'learn-refused-en.png') });
  // An enemy's piece: not its part of the turn.
  r = await refusal(page, () => page.locator('.piece[data-colour="red"][data-progress="17"]').dispatchEvent('click'));
  if (!/Red/.test(r.text)) throw new Error(`the enemy piece: ${r.text}`);
  // A square the selected piece cannot reach: the reason and its rule.
  const geo = await page.evaluate(() => fetch('/api/board').then((x) => x.json()));
  await click(page, '.piece.movable[data-colour="yellow"][data-progress="30"]');
  r = await refusal(page, () => click(page, `rect.sq[data-rc="${geo.tracks.yellow[43].join(',')}"]`));
  if (!/only 4 points are left, not 13/.test(r.text) || r.href !== '#/rules/chaupar/throw') throw new Error(`the square refused: ${r.text} ${r.href}`);
  // In Russian: the stuck piece again, the reason in Russian; the link leads to the rule.
  await click(page, '#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'ru' && document.querySelector('.learn-lesson svg.board'));
  // Yellow 30 is still selected: a click on a piece is a click on its square.
  r = await refusal(page, () => page.locator(stuck).dispatchEvent('click'));
  if (!/не 53/.test(r.text)) throw new Error(`the square under a piece, in Russian: ${r.text}`);
  await click(page, '.piece.movable.selected[data-colour="yellow"][data-progress="30"]');
  await page.waitForSelector('.piece.selected', { state: 'detached' });
  r = await refusal(page, () => page.locator(stuck).dispatchEvent('click'));
  if (!/чёрных должны быть дома/.test(r.text) || r.href !== '#/rules/chaupar/order') throw new Error(`in Russian: ${r.text} ${r.href}`);
  await page.screenshot({ path: path.join(out, 'learn-refused-ru.png') });
  await click(page, '#toast a.rule');
  await page.waitForURL(/#\/rules\/chaupar\/order/);
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  await page.context().close();
}

await runTests('learn', [threeLessonsByClicking, showMePlaysTheAnswerWithoutMarkingItDone, lessonSurvivesLanguageSwitch, refusedClicksSayWhy]);
