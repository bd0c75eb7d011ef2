// Plays a whole game of Chaupar in headless Chromium through the web board: one
// person (Yellow) and three computer seats. The person takes the first allowed
// destination each time. Checks that the winner is shown and that the page logged
// no console errors; saves screenshots in target/browser/.
//
// Usage: node play.mjs BASE_URL OUT_DIR
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const base = process.argv[2] || 'http://127.0.0.1:8080';
const out = process.argv[3] || 'target/browser';
const limitMs = Number(process.env.BROWSER_TEST_LIMIT_MS || 15 * 60 * 1000);
const preset = process.env.BROWSER_TEST_PRESET || 'chaupar';
fs.mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
const errors = [];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function click(page, selector) {
  const loc = page.locator(selector).first();
  try {
    await loc.click({ timeout: 1500 });
  } catch (_) {
    // Covered or moving: send the click to the element itself.
    await loc.dispatchEvent('click', {}, { timeout: 1500 });
  }
}

async function playOneGame() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.goto(base + '/#/');
  await page.waitForSelector('#new-game');
  await page.screenshot({ path: path.join(out, 'lobby.png') });
  await page.selectOption('#preset', preset);
  await page.selectOption('#players', '4');
  await page.selectOption('#seat-yellow', 'person');
  for (const c of ['red', 'black', 'green']) await page.selectOption(`#seat-${c}`, '1');
  await page.fill('#delay', '0');
  await page.click('#start');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('svg.board');
  const board = await page.evaluate(() => fetch('/api/board').then((r) => r.json()));
  const t0 = Date.now();
  let actions = 0;
  let shotMid = false;
  let checkedWhyNot = false;
  let checkedUndo = false;
  while (true) {
    if (Date.now() - t0 > limitMs) throw new Error(`game not over after ${limitMs / 1000} s (${actions} actions)`);
    if (await page.locator('#winner').count()) break;
    if (await page.locator('.modal .choice').count()) {
      await click(page, '.modal .choice');
      actions++;
    } else if (await page.locator('#throw').count()) {
      await click(page, '#throw');
      actions++;
    } else if (await page.locator('.piece.movable').count()) {
      await click(page, '.piece.movable');
      try {
        await page.waitForSelector('.target', { timeout: 2000 });
      } catch (_) { continue; }
      if (!checkedWhyNot) {
        // A square out of reach: the page must say why in words (from the server).
        const piece = page.locator('.piece.selected').first();
        const colour = await piece.getAttribute('data-colour');
        const from = Number(await piece.getAttribute('data-progress'));
        const far = board.tracks[colour][from + 30];
        if (far) {
          await page.locator(`rect.sq[data-rc="${far[0]},${far[1]}"]`).dispatchEvent('click');
          await page.waitForSelector('#toast.show.bad', { timeout: 5000 });
          const why = (await page.locator('#toast').textContent()).trim();
          if (why.length < 5) throw new Error(`no reason given for an illegal step: "${why}"`);
          console.log(`browser: an illegal step is refused with: ${why}`);
          checkedWhyNot = true;
          if (!(await page.locator('.target').count())) await click(page, '.piece.movable');
          await page.waitForSelector('.target', { timeout: 2000 });
        }
      }
      if (!shotMid && actions > 20) {
        await page.screenshot({ path: path.join(out, 'midgame.png') });
        shotMid = true;
      }
      await click(page, '.target');
      actions++;
      if (!checkedUndo) {
        // Take the step back once, and check the turn has no steps again.
        await page.waitForSelector('#undo', { timeout: 3000 });
        await click(page, '#undo');
        await page.waitForSelector('#undo', { state: 'detached', timeout: 3000 });
        checkedUndo = true;
      }
    } else if (await page.locator('#end').count()) {
      await click(page, '#end');
      actions++;
    } else {
      await page.waitForTimeout(100);
      continue;
    }
    await page.waitForTimeout(60);
  }
  const winner = (await page.locator('#winner').textContent()).trim();
  await page.waitForSelector('#game-over');
  await page.screenshot({ path: path.join(out, 'final.png') });
  console.log(`browser: game over after ${actions} clicks in ${Math.round((Date.now() - t0) / 1000)} s: ${winner}`);
  if (!/Winner|Победа|dead|мертва/.test(winner)) throw new Error(`no winner shown: ${winner}`);
  // The replay and rules pages draw without errors too.
  const id = page.url().split('/').pop();
  await page.goto(`${base}/#/replay/${id}`);
  await page.waitForSelector('svg.board');
  await page.keyboard.press('ArrowLeft');
  await page.screenshot({ path: path.join(out, 'replay.png') });
  await page.goto(`${base}/#/rules/classic`);
  await page.waitForSelector('.doc');
  await page.screenshot({ path: path.join(out, 'rules.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/#/`);
  await page.click('#lang');
  await page.waitForSelector('#new-game');
  await page.screenshot({ path: path.join(out, 'lobby-phone-ru.png'), fullPage: true });
  await context.close();
}

try {
  await playOneGame();
  if (errors.length) throw new Error(`the page logged errors:\n  ${errors.join('\n  ')}`);
  passed++;
} catch (e) {
  console.error(`browser: FAILED: ${e.message}`);
  failed++;
} finally {
  await browser.close();
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
