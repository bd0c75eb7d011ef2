// Tutor mode and the review's graph (issue 11, items 3 and 4), in headless
// Chromium against a running server:
// - tutorWarnsAndTakesBack: a tutor game (one person, three computers, a
//   fixed seed) made from the lobby form; on a throw where the worst play is
//   far behind the best (ranked by `chaupar hint --json --nodes`, the binary
//   beside the server, with the tutor's own work budget: the ranking, and so
//   the game's course, is the same however loaded the machine is), the person clicks the worst play on the board and presses
//   End: the tutor's warning shows (in English, then in Russian), the better
//   play is drawn as arrows; "Take back" undoes the turn's steps, and the best
//   play then ends without a warning. The warnings are counted in the browser.
// - tutorCountAtEnd: a tutor game from the lobby form; on a telling throw the
//   person plays the worst play and is warned twice (once in English, once in
//   Russian), ends anyway, then gives the seat to the computer (the owner's
//   "to computer" button), which plays the game to its end. The end screen
//   counts the warnings in words, in English and Russian ("2 warnings",
//   "2 предупреждения"), also after the page is drawn again, with the seat's
//   token gone (the server forgets it when the seat changes hands).
// - reviewGraph: a finished computer-only game's replay; its review's graph
//   has a point for every turn, and clicking one moves the replay to that turn.
//
// Usage: node tutor.e2e.mjs BASE_URL OUT_DIR (see harness.mjs); CHAUPAR_BIN is
// the binary (default target/release/chaupar).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { base, out, click, newPage, runTests } from './harness.mjs';

const BIN = process.env.CHAUPAR_BIN || 'target/release/chaupar';
const SEED = 11;

const view = (page, id) => page.evaluate((i) => fetch(`/api/games/${i}`).then((r) => r.json()), id);

// Every play of the turn under way ranked best first, by the engine's command line.
function ranking(g) {
  const throwArg = g.turn.throw.join(',');
  const text = execFileSync(BIN, ['hint', '--position', '-', '--throw', throwArg, '--json', '--nodes', '200000'],
    { input: JSON.stringify(g.position) });
  return JSON.parse(text).plays;
}

async function waitFor(what, f, ms = 30000) {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Takes `step` by clicking the piece and its target (and the choice, when
// several steps end on that square), as a person does.
async function clickStep(page, id, step) {
  const g = await view(page, id);
  const before = g.turn.steps.length;
  await click(page, `.piece.movable[data-colour="${step.colour}"][data-progress="${step.from}"]`);
  await page.waitForSelector(`.target[data-to="${step.to}"]`, { timeout: 5000 });
  await click(page, `.target[data-to="${step.to}"]`);
  const options = g.turn.legal.filter((s) => s.colour === step.colour && s.from === step.from && s.to === step.to);
  if (options.length > 1) {
    const k = options.findIndex((s) => same(s, step));
    if (k < 0) throw new Error(`step ${JSON.stringify(step)} not among ${JSON.stringify(options)}`);
    await page.waitForSelector('.modal .choice');
    await click(page, `.modal .choice[data-i="${k}"]`);
  }
  await waitFor('the step', async () => ((await view(page, id)).turn || { steps: [] }).steps.length === before + 1);
}

const tutorKept = (page, id) => page.evaluate((i) => JSON.parse(localStorage.getItem(`chaupar.tutor.${i}`) || '{}'), id);

// A tutor game made from the lobby form: the person Yellow, three computers.
async function tutorGame() {
  const page = await newPage();
  await page.goto(base + '/#/');
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  await page.goto(base + '/#/');
  await page.waitForSelector('#new-game');
  await page.selectOption('#preset', 'chaupar');
  await page.selectOption('#players', '4');
  await page.selectOption('#seat-yellow', 'person');
  for (const c of ['red', 'black', 'green']) await page.selectOption(`#seat-${c}`, '1');
  await page.fill('#delay', '0');
  await page.fill('#seed', String(SEED));
  await page.check('#tutor');
  await page.click('#start');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('svg.board');
  const id = page.url().split('/').pop();
  const g0 = await view(page, id);
  if (!g0.tutor || g0.tutor.threshold !== 0.05) throw new Error(`not a tutor game: ${JSON.stringify(g0.tutor)}`);
  return { page, id };
}

// Waits for the page to offer Yellow's throw; if it does not, the error says
// what the server and the page showed (a rare failure in CI left no trace).
async function throwShown(page, id) {
  try {
    await page.waitForSelector('#throw', { timeout: 30000 });
  } catch (e) {
    const v = await view(page, id);
    const seen = await page.evaluate((i) => {
      const game = document.querySelector('.game');
      const tokens = JSON.parse(localStorage.getItem(`chaupar.tokens.${i}`) || '{}');
      return {
        url: location.hash,
        held: Object.keys(tokens.seats || {}),
        game: game && { busy: game.dataset.busy, live: game.dataset.live, buttons: [...document.querySelectorAll('.buttons button')].map((b) => b.id) },
      };
    }, id);
    const server = { version: v.version, outcome: v.outcome, to_move: v.to_move, to_move_kind: v.to_move_kind, turn: v.turn && { colour: v.turn.colour, steps: v.turn.steps.length }, moves: v.moves.length };
    throw new Error(`no throw offered: the server ${JSON.stringify(server)}, the page ${JSON.stringify(seen)}: ${e.message}`);
  }
}

// Plays Yellow's turns with the best play until a throw whose worst play loses
// at least 15%; answers that turn's state and ranking (its dice thrown, no step taken).
async function tellingThrow(page, id) {
  for (let turn = 0; turn < 30; turn++) {
    await throwShown(page, id);
    await click(page, '#throw');
    const g = await waitFor('the throw', async () => { const v = await view(page, id); return v.turn && v.turn.colour === 'yellow' ? v : null; });
    const plays = ranking(g);
    if (plays.length >= 2 && plays[0].win - plays[plays.length - 1].win >= 0.15) return { g, plays };
    for (const s of plays[0].steps) await clickStep(page, id, s);
    await click(page, '#end');
    await waitFor('the end of the turn', async () => (await view(page, id)).moves.length > g.moves.length);
    if (await page.locator('#tutor-warning').count()) throw new Error('the tutor warned of the best play');
  }
  throw new Error('no throw with a play losing 15% in 30 turns');
}

async function tutorWarnsAndTakesBack() {
  const { page, id } = await tutorGame();
  const { g, plays } = await tellingThrow(page, id);
  const best = plays[0];
  const worst = plays[plays.length - 1];
  // The worst play, then End: the warning, with the better play drawn.
  for (const s of worst.steps) await clickStep(page, id, s);
  await click(page, '#end');
  await page.waitForSelector('#tutor-warning', { timeout: 30000 });
  const text = await page.locator('#tutor-warning').textContent();
  if (!/This play loses \d+\.\d% of win chance against/.test(text)) throw new Error(`warning: ${text}`);
  const arrows = await page.locator('svg.board .tutor-arrow').count();
  if (arrows < 1) throw new Error('no arrow for the better play');
  if ((await view(page, id)).moves.length !== g.moves.length) throw new Error('the turn ended in spite of the warning');
  await page.screenshot({ path: path.join(out, 'tutor-warning-en.png') });
  // In Russian: the page again, End again, the warning in Russian.
  await click(page, '#lang');
  await page.waitForSelector('#end');
  await click(page, '#end');
  await page.waitForSelector('#tutor-warning', { timeout: 30000 });
  const ru = await page.locator('#tutor-warning').textContent();
  if (!ru.includes('Этот ход теряет')) throw new Error(`Russian warning: ${ru}`);
  await page.screenshot({ path: path.join(out, 'tutor-warning-ru.png') });
  const kept = await tutorKept(page, id);
  if (kept.warned !== 2) throw new Error(`warnings counted: ${JSON.stringify(kept)}`);
  // Take back: every step undone, the turn still Yellow's.
  await click(page, '#tutor-takeback');
  await waitFor('the steps taken back', async () => { const v = await view(page, id); return v.turn && v.turn.steps.length === 0; });
  await page.waitForSelector('#tutor-warning', { state: 'detached' });
  // The best play: no warning, the turn ends.
  for (const s of best.steps) await clickStep(page, id, s);
  await click(page, '#end');
  await waitFor('the end of the turn', async () => (await view(page, id)).moves.length > g.moves.length);
  if (await page.locator('#tutor-warning').count()) throw new Error('the tutor warned of the best play');
  if ((await tutorKept(page, id)).warned !== 2) throw new Error('a warning counted for the best play');
  await click(page, '#lang');
  await page.close();
}

async function reviewGraph() {
  const page = await newPage();
  await page.goto(base + '/#/');
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  const seats = Object.fromEntries(['yellow', 'red', 'black', 'green'].map((c) => [c, { kind: 'computer', level: 1 }]));
  const made = await page.evaluate((body) => fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json()),
    { preset: 'chaupar', seed: SEED, delay_ms: 0, seats });
  const id = made.id;
  const g = await waitFor('the game over', async () => { const v = await view(page, id); return v.outcome !== 'playing' ? v : null; }, 120000);
  const turns = g.moves.length;
  for (const lang of ['en', 'ru']) {
    await page.evaluate((l) => localStorage.setItem('chaupar.lang', l), lang);
    await page.goto(`${base}/#/replay/${id}`);
    await page.reload();
    await page.waitForSelector('#review');
    await click(page, '#review');
    await page.waitForSelector('.review-graph .point', { timeout: 60000 });
    const points = await page.locator('.review-graph .point').count();
    if (points !== turns) throw new Error(`${points} points for ${turns} turns`);
    const legend = await page.locator('.review-graph .legend').first().textContent();
    if (!legend.includes(lang === 'ru' ? 'доля ошибок' : 'error rate')) throw new Error(`legend: ${legend}`);
    // A click on a turn's point: the replay shows that turn.
    const k = Math.max(1, Math.floor(turns / 2));
    await page.locator(`.review-graph .point[data-turn="${k}"]`).dispatchEvent('click');
    await waitFor('the replay at the turn clicked', async () => (await page.locator('.side .status').first().textContent()).startsWith(`${k}. `));
    if (!(await page.locator(`.review-graph .point.current[data-turn="${k}"]`).count())) throw new Error('the point clicked is not marked');
    await page.locator('.graph-box').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(out, `review-graph-${lang}.png`), fullPage: true });
  }
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  await page.close();
}

async function tutorCountAtEnd() {
  const { page, id } = await tutorGame();
  const { g, plays } = await tellingThrow(page, id);
  // The worst play, End: warned; End again in Russian: warned twice; then End anyway.
  for (const s of plays[plays.length - 1].steps) await clickStep(page, id, s);
  await click(page, '#end');
  await page.waitForSelector('#tutor-warning', { timeout: 30000 });
  await click(page, '#lang');
  await page.waitForSelector('#end');
  await click(page, '#end');
  await page.waitForSelector('#tutor-warning', { timeout: 30000 });
  await click(page, '#tutor-end');
  await waitFor('the turn ended anyway', async () => (await view(page, id)).moves.length > g.moves.length);
  const kept = await tutorKept(page, id);
  if (kept.warned !== 2 || kept.ended !== 1) throw new Error(`warnings counted: ${JSON.stringify(kept)}`);
  // The rest of the game to the computer: the owner's button on Yellow's row.
  await click(page, '#lang');
  await page.waitForSelector('.player[data-seat="yellow"] .to-computer');
  await click(page, '.player[data-seat="yellow"] .to-computer');
  await waitFor('Yellow played by the computer', async () => (await view(page, id)).seats.yellow.kind === 'computer');
  // The seat's token stopped working: the page no longer holds it.
  const held = await page.evaluate((i) => JSON.parse(localStorage.getItem(`chaupar.tokens.${i}`)), id);
  if (held.seats.yellow || !held.owner) throw new Error(`tokens kept: ${JSON.stringify(Object.keys(held.seats))}, owner ${Boolean(held.owner)}`);
  await waitFor('the game over', async () => (await view(page, id)).outcome !== 'playing', 300000);
  const want = { en: 'Tutor: 2 warnings (1 play ended anyway)', ru: 'Наставник: 2 предупреждения (1 ход закончен вопреки предупреждению)' };
  for (const lang of ['en', 'ru']) {
    if (lang === 'ru') await click(page, '#lang');
    await page.waitForSelector('#game-over #tutor-count', { timeout: 30000 });
    const text = (await page.locator('#tutor-count').textContent()).trim();
    if (text !== want[lang]) throw new Error(`the count at the end (${lang}): ${text}`);
    await page.screenshot({ path: path.join(out, `tutor-count-${lang}.png`) });
  }
  // Drawn again from scratch (a reload), the count is still there.
  await page.reload();
  await page.waitForSelector('#game-over #tutor-count', { timeout: 30000 });
  const again = (await page.locator('#tutor-count').textContent()).trim();
  if (again !== want.ru) throw new Error(`the count after a reload: ${again}`);
  await page.evaluate(() => localStorage.setItem('chaupar.lang', 'en'));
  await page.close();
}

await runTests('tutor', [tutorWarnsAndTakesBack, tutorCountAtEnd, reviewGraph]);
