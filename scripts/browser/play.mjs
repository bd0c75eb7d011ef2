// Plays a whole game of Chaupar in headless Chromium through the web board: one
// person (Yellow) and three computer seats. The person takes the first allowed
// destination each time. Checks that the winner is shown, that the game page was
// kept up to date over its WebSocket (not by polling), and that the page logged
// no console errors; saves screenshots in target/browser/. Then checks live
// updates: a dropped socket is reopened, a page without WebSocket polls, and a
// deleted game sends the page back to the list. Last, that what is left of a
// throw is counted in dice with throw=dice and in points with throw=total.
// And online play: an owner invites a second person by link to another seat, a
// spectator watches; both people play to the end (one reloading mid-turn) and
// the spectator sees every move live, with no action buttons.
//
// Usage: node play.mjs BASE_URL OUT_DIR (see harness.mjs)
import path from 'node:path';
import { base, out, browser, click, errors, runTests } from './harness.mjs';

const limitMs = Number(process.env.BROWSER_TEST_LIMIT_MS || 15 * 60 * 1000);
const preset = process.env.BROWSER_TEST_PRESET || 'chaupar';

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
  await page.waitForSelector('.game[data-live="socket"]', { timeout: 5000 });
  const gameId = page.url().split('/').pop();
  let polls = 0;
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/games/${gameId}`) polls++;
  });
  const board = await page.evaluate(() => fetch('/api/board').then((r) => r.json()));
  const t0 = Date.now();
  let actions = 0;
  let shotMid = false;
  let checkedWhyNot = false;
  let checkedUndo = false;
  while (true) {
    if (Date.now() - t0 > limitMs) throw new Error(`game not over after ${limitMs / 1000} s (${actions} actions)`);
    // Read the page only once the last action is answered: until then it still
    // shows the state before it (an End button the answer then takes away).
    await page.waitForSelector('.game:not([data-busy="yes"])', { timeout: 10000 });
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
          const why = (await page.locator('#toast .msg').textContent()).trim();
          // The refusal links to the rule behind it.
          const rule = await page.locator('#toast a.rule').getAttribute('href');
          if (!/^#\/rules\/[a-z]+\/[a-z_-]+$/.test(rule || '')) throw new Error(`the refusal links to "${rule}", not to a rule`);
          // The words are the engine's answer for the move clicked (any unit, any
          // use of the throw), and here, in the default preset that splits the
          // total, they name the points really left.
          const g = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), gameId);
          const asked = await page.evaluate(([id, seat, c, f]) => fetch(`/api/games/${id}/check`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${JSON.parse(localStorage.getItem(`chaupar.tokens.${id}`)).seats[seat]}` },
            body: JSON.stringify({ seat, colour: c, from: f, to: f + 30 }),
          }).then((r) => r.json()), [gameId, g.to_move, colour, from]);
          if (why !== asked.why) throw new Error(`the page says "${why}", the engine "${asked.why}"`);
          const left = g.turn.points_left;
          const expected = `only ${left} points are left, not 30`;
          // (Past progress 75 the home column begins, and "no capture yet" would come first.)
          if (from + 30 <= 75 && why !== expected) throw new Error(`a square 30 ahead is refused with "${why}", not "${expected}"`);
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
  console.log(`browser: game over after ${actions} clicks in ${Math.round((Date.now() - t0) / 1000)} s: ${winner}; ${polls} GETs of the game`);
  if ((await page.locator('.game').getAttribute('data-live')) !== 'socket') throw new Error('the game page is not on its WebSocket');
  // Updates came over the socket: the page only fetched the game after a refused click.
  if (polls > 10) throw new Error(`the game page fetched the game ${polls} times: polling instead of its WebSocket?`);
  if (!/Winner|Победа|dead|мертва/.test(winner)) throw new Error(`no winner shown: ${winner}`);
  // The dice: the commitment was shown, and the finished game's dice are
  // verified in the browser (WebCrypto) against the revealed secret.
  const commitTitle = await page.locator('#dice-commit').getAttribute('title');
  if (!/^[0-9a-f]{64}/.test(commitTitle || '')) throw new Error(`no dice commitment shown: ${commitTitle}`);
  if ((await page.locator('#dice-info code').count()) < 2) {
    throw new Error('the creator\'s client seed is not shown');
  }
  await page.waitForSelector('#dice-verify[data-ok]', { timeout: 10000 });
  const verdict = (await page.locator('#dice-verify').textContent()).trim();
  if ((await page.locator('#dice-verify').getAttribute('data-ok')) !== 'yes' || !/dice verified \(\d+ throws\)|кости проверены \(\d+ бросков\)/.test(verdict)) {
    throw new Error(`the page did not verify the dice: ${verdict}`);
  }
  console.log(`browser: ${verdict}`);
  // The replay and rules pages draw without errors too.
  const id = page.url().split('/').pop();
  await page.goto(`${base}/#/replay/${id}`);
  await page.waitForSelector('svg.board');
  await page.keyboard.press('ArrowLeft');
  // The review of the finished game: each side's figures, the worst plays as
  // links to their turns.
  await page.click('#review');
  await page.waitForSelector('.review h3', { timeout: 30000 });
  const sides = await page.locator('.review-sides li').count();
  if (sides !== 2) throw new Error(`the review shows ${sides} sides, not 2`);
  const marked = page.locator('.review-list a');
  if (await marked.count()) {
    await marked.first().click();
    const label = await page.locator('.status').first().textContent();
    if (!/^\d+\. /.test(label)) throw new Error(`a reviewed play did not lead to its turn: ${label}`);
  }
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

// Creates a game from the page as the lobby does, keeping its tokens where the
// page keeps them (localStorage chaupar.tokens.<id>); answers the game.
async function createKept(page, body) {
  return page.evaluate((b) => fetch('/api/games', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b),
  }).then((r) => r.json()).then((g) => {
    localStorage.setItem(`chaupar.tokens.${g.id}`, JSON.stringify({ owner: g.owner_token, seats: g.seat_tokens, invites: g.invites || {} }));
    return g;
  }), body);
}

// Deletes a game with the owner's token the page keeps.
async function deleteKept(page, id) {
  await page.evaluate((gid) => fetch(`/api/games/${gid}`, {
    method: 'DELETE', headers: { Authorization: `Bearer ${JSON.parse(localStorage.getItem(`chaupar.tokens.${gid}`)).owner}` },
  }).then((r) => { if (!r.ok) throw new Error(`delete: ${r.status}`); }), id);
}

// A game of computers, slow enough to watch; returns its id.
async function computerGame(page, delay) {
  const cpu = { kind: 'computer', level: 1 };
  const g = await createKept(page, { preset: 'chaupar', delay_ms: delay, seats: { yellow: cpu, red: cpu, black: cpu, green: cpu } });
  return g.id;
}

// Waits until the page shows more moves than it does now.
async function movesGrow(page, what) {
  const n = await page.locator('.movelist li').count();
  try {
    await page.waitForFunction((k) => document.querySelectorAll('.movelist li').length > k, n, { timeout: 15000 });
  } catch (_) { throw new Error(`${what}: the page showed no new move in 15 s`); }
}

async function liveUpdates() {
  // A socket that drops is opened again, and updates go on.
  const context = await browser.newContext();
  let sockets = 0;
  await context.routeWebSocket(/\/api\/games\/[^/]+\/ws$/, (ws) => {
    sockets++;
    if (sockets === 1) setTimeout(() => ws.close(), 300); // the first one drops
    else ws.connectToServer();
  });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.goto(base + '/#/');
  await page.waitForSelector('#new-game');
  const id = await computerGame(page, 150);
  // The list in the lobby is live: a game started elsewhere shows up.
  try {
    await page.waitForFunction((gid) => [...document.querySelectorAll('table.games code')]
      .some((c) => c.textContent === gid), id, { timeout: 8000 });
  } catch (_) { throw new Error('a game started elsewhere did not show up in the lobby in 8 s'); }
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('.game[data-live="polling"]', { timeout: 5000 });
  await page.waitForFunction(() => document.querySelector('.game[data-live="socket"]'), null, { timeout: 10000 });
  if (sockets < 2) throw new Error(`the dropped socket was not opened again (${sockets} sockets)`);
  await movesGrow(page, 'after a reconnect');
  // Deleting the game (elsewhere) sends the page back to the list.
  await deleteKept(page, id);
  await page.waitForSelector('#new-game', { timeout: 5000 });
  await page.waitForSelector('#toast.show.bad', { timeout: 2000 });
  await context.close();

  // Without WebSocket the page polls.
  const old = await browser.newContext();
  await old.addInitScript(() => { window.WebSocket = undefined; });
  const p2 = await old.newPage();
  p2.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await p2.goto(base + '/#/');
  await p2.waitForSelector('#new-game');
  const id2 = await computerGame(p2, 150);
  await p2.goto(`${base}/#/game/${id2}`);
  await p2.waitForSelector('.game[data-live="polling"]', { timeout: 5000 });
  await movesGrow(p2, 'polling without WebSocket');
  await deleteKept(p2, id2);
  await old.close();
  console.log('browser: live updates: the lobby list follows new games, a dropped socket reconnects, no WebSocket means polling, deletion is pushed');
}

// A game with Yellow a person and the dice thrown for Yellow; returns its id.
async function thrownForPerson(page, preset, options) {
  const cpu = { kind: 'computer', level: 1 };
  const g = await createKept(page, { preset, options, delay_ms: 0, seats: { yellow: { kind: 'person' }, red: cpu, black: cpu, green: cpu } });
  const post = (url, body) => page.evaluate(([u, b, t]) => fetch(u, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${t}` }, body: JSON.stringify(b),
  }).then((r) => r.json()), [url, body, g.seat_tokens.yellow]);
  const t0 = Date.now();
  while (Date.now() - t0 < 15000) {
    const now = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), g.id);
    if (now.to_move === 'yellow' && now.turn) return g.id;
    if (now.to_move === 'yellow') await post(`/api/games/${g.id}/throw`, { seat: 'yellow' });
    else await page.waitForTimeout(100);
  }
  throw new Error(`${preset}: Yellow never came to throw`);
}

async function throwModeLabels() {
  // What is left of a throw: dice where each die is played alone (throw=dice),
  // points where the total is (throw=total), whatever the preset's default.
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.goto(base + '/#/');
  await page.waitForSelector('#new-game');
  const cases = [['chaupar', {}, 'points'], ['chausar', {}, 'dice'], ['chausar', { throw: 'total' }, 'points'], ['classic', {}, 'dice']];
  for (const [name, options, want] of cases) {
    const id = await thrownForPerson(page, name, options);
    await page.goto(`${base}/#/game/${id}`);
    await page.waitForSelector('#left');
    const text = (await page.locator('#left').textContent()).trim();
    const dice = text.startsWith('dice left');
    const points = text.startsWith('points left');
    if (want === 'dice' ? !dice || points : dice || !points) {
      throw new Error(`${name} ${JSON.stringify(options)}: the label says "${text}", not ${want} left`);
    }
    // Leave the game before deleting it: deleted under the open page, a socket
    // still in its handshake is refused (404) and the browser logs that.
    await page.goto(base + '/#/');
    await page.waitForSelector('#new-game');
    await deleteKept(page, id);
  }
  await context.close();
  console.log('browser: the throw shows dice left with throw=dice and points left with throw=total');
}

// One move of whichever action the page offers; answers whether it did one
// (false too when the page changed under the click: the next round tries again).
async function playStep(page) {
  try { return await tryStep(page); } catch (_) { return false; }
}

async function tryStep(page) {
  if (await page.locator('.modal .choice').count()) { await click(page, '.modal .choice'); return true; }
  if (await page.locator('#throw').count()) { await click(page, '#throw'); return true; }
  if (await page.locator('.piece.movable').count()) {
    await click(page, '.piece.movable');
    try { await page.waitForSelector('.target', { timeout: 2000 }); } catch (_) { return false; }
    await click(page, '.target');
    return true;
  }
  if (await page.locator('#end').count()) { await click(page, '#end'); return true; }
  return false;
}

async function onlineGame() {
  // The owner (Yellow) leaves Black free for a friend, computers play Red and Green.
  const ctxs = [];
  const open = async () => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    ctxs.push(c);
    const p = await c.newPage();
    p.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    p.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    return p;
  };
  const owner = await open();
  await owner.goto(base + '/#/');
  await owner.waitForSelector('#new-game');
  await owner.selectOption('#preset', 'chaupar');
  await owner.selectOption('#players', '4');
  await owner.fill('#my-name', 'Asha');
  await owner.selectOption('#seat-yellow', 'person');
  await owner.selectOption('#seat-black', 'free');
  for (const c of ['red', 'green']) await owner.selectOption(`#seat-${c}`, '1');
  await owner.fill('#delay', '0');
  await owner.click('#start');
  await owner.waitForURL(/#\/game\//);
  const id = owner.url().split('/').pop();
  const link = await owner.locator('.player[data-seat="black"] input.invite').inputValue();
  // The friend opens the invite link and gives a name with markup in it: shown as text.
  const friend = await open();
  await friend.goto(link.replace(/^https?:\/\/[^/]+/, base));
  await friend.waitForSelector('#join-form');
  await friend.fill('#join-name', '<i>Ravi</i>');
  await friend.click('#take-seat');
  await friend.waitForURL(/#\/game\//);
  await friend.waitForSelector('.game[data-live="socket"]');
  // The spectator has the plain link: watches, no buttons.
  const watcher = await open();
  await watcher.goto(`${base}/#/game/${id}`);
  await watcher.waitForSelector('#spectator');
  await owner.waitForFunction(() => /<i>Ravi<\/i>/.test(document.querySelector('.player[data-seat="black"] .name').textContent));
  if (await owner.locator('.player[data-seat="black"] i').count()) throw new Error('a name was shown as markup');
  // Presence: the owner sees the friend connected.
  await owner.waitForSelector('.player[data-seat="black"] .presence.on', { timeout: 5000 });
  // The chat: the owner's line reaches the friend live, as text; the spectator has no chat.
  await owner.fill('#chat-input', '<b>namaste</b>');
  await owner.press('#chat-input', 'Enter');
  await friend.waitForFunction(() => [...document.querySelectorAll('.chat-text')].some((n) => n.textContent === '<b>namaste</b>'), null, { timeout: 5000 });
  if (await friend.locator('.chat-lines b').count()) throw new Error('a chat line was shown as markup');
  if (await watcher.locator('#chat-input').count()) throw new Error('the spectator is offered the players\' chat');
  const t0 = Date.now();
  let reloaded = false;
  let actions = 0;
  while (true) {
    if (Date.now() - t0 > limitMs) throw new Error(`online game not over after ${limitMs / 1000} s`);
    if (await owner.locator('#winner').count()) break;
    if (await watcher.locator('#throw, #end, .piece.movable').count()) throw new Error('the spectator is offered an action');
    let did = false;
    for (const p of [owner, friend]) {
      if (await p.locator('#winner').count()) continue;
      if (await playStep(p)) { did = true; actions++; }
    }
    // Only once no action of the friend's is on its way: the DOM before an End's
    // answer still shows the turn the server is ending.
    if (!reloaded && actions > 10) await friend.waitForSelector('.game:not([data-busy="yes"])', { timeout: 5000 });
    if (!reloaded && actions > 10 && (await friend.locator('#end, .piece.movable').count())) {
      // Mid-turn (the dice thrown), the friend reloads and carries on with the seat.
      await friend.reload();
      await friend.waitForSelector('.game[data-live="socket"]');
      await friend.waitForSelector('#end, .piece.movable, .modal .choice', { timeout: 5000 });
      reloaded = true;
    }
    if (!did) await owner.waitForTimeout(80);
  }
  if (!reloaded) throw new Error('the friend never reloaded mid-turn');
  const moves = await owner.evaluate((gid) => fetch(`/api/games/${gid}`).then((r) => r.json()).then((g) => g.moves.length), id);
  await watcher.waitForSelector('#winner', { timeout: 5000 });
  await watcher.waitForFunction((n) => document.querySelectorAll('.movelist li').length === n, moves, { timeout: 5000 });
  await watcher.screenshot({ path: path.join(out, 'online-spectator.png') });
  // Every page, the spectator's too, checks the dice against the revealed secret.
  const verdicts = [];
  for (const p of [owner, friend, watcher]) {
    await p.waitForSelector('#dice-verify[data-ok]', { timeout: 10000 });
    const v = (await p.locator('#dice-verify').textContent()).trim();
    if ((await p.locator('#dice-verify').getAttribute('data-ok')) !== 'yes') throw new Error(`the online game's dice were not verified: ${v}`);
    verdicts.push(v);
  }
  for (const c of ctxs) await c.close();
  console.log(`browser: online game: invited by link, ${actions} actions by two people, a reload mid-turn, the spectator saw all ${moves} moves, ${verdicts[2]} on every page`);
}

// BROWSER_TESTS=onlineGame,... runs only those.
await runTests('play', [playOneGame, liveUpdates, throwModeLabels, onlineGame]);
