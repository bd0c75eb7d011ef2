// The game page: the board and its side panel for one game, followed live.
// The server decides everything: the page shows the state it is given, sends
// what the person clicks, and asks the server why a refused click is refused.
import * as api from '../api.js';
import { drawBoard } from '../board.js';
import { el, toast, typingIn } from '../dom.js';
import { gameOption, geometry } from '../facts.js';
import { inLanguage, t } from '../i18n.js';
import { progressAt } from '../layout.js';
import { follow } from '../live.js';
import { chooseStep, targetsOf } from './game-steps.js';
import { gameOverBox, sidePanel } from './game-side.js';
import { bestArrows, countTutor, tutorSummary, tutorWarning } from './game-tutor.js';
import { gone } from '../router.js';

/** Shows game `id` in `main` (unless `signal` says another page was asked for meanwhile); answers the function that stops following it. */
export async function gamePage(main, id, signal) {
  let g = await api.getGame(id);
  if (gone(signal)) return null;
  let sel = null; // the selected unit {c, p}
  let lastThrowKey = null;
  let busy = false; // an action is under way (also shown as data-busy for tests)
  let live = null; // the live connection, from the first render on
  let advice = null; // the tutor's answer to a play it warned of, while that turn lasts
  const hintBox = el('div', { class: 'hint' });
  const chatBox = chatPanel(id, g);
  const wrap = el('div', { class: 'game' });
  main.replaceChildren(wrap);
  const setBusy = (b) => { busy = b; wrap.dataset.busy = b ? 'yes' : 'no'; };

  let connected = []; // the seats some socket holds (presence)
  // The page acts for the seat to move only if it holds that seat's token;
  // otherwise it watches (no action buttons).
  const isPersonTurn = () => g.outcome === 'playing' && g.to_move_kind === 'person' && Boolean(api.held(id).seats[g.to_move]);
  const legal = () => (g.turn && g.turn.legal) || [];

  async function act(action, extra) {
    if (busy) return;
    setBusy(true);
    try {
      const r = await api.act(id, action, g.to_move, extra);
      // The socket may already have brought a later state (a computer playing on).
      const pushed = live && live.latest();
      g = pushed && pushed.version > r.version ? pushed : r;
      sel = null;
      render();
    } catch (e) {
      toast(e.message, true, ruleLink(e.rule));
      await refresh(true);
    } finally { setBusy(false); }
  }

  // A link to the rule behind a refusal (docs/rules.md's heading, on the rules
  // page of this game's preset), if the engine names one.
  function ruleLink(rule) {
    return rule ? { href: `#/rules/${g.preset || g.rules}/${rule}`, text: t('the_rule') } : null;
  }

  // In a tutor game, End first asks the tutor: a warning, or the end.
  async function endOrAsk(action, extra) {
    if (action !== 'end' || !g.tutor || !(g.turn && g.turn.steps.length)) return act(action, extra);
    if (busy) return;
    setBusy(true);
    let r = null;
    try { r = await api.tutor(id, g.to_move); } catch (e) { toast(e.message, true); }
    setBusy(false);
    if (!r || !r.warn) { await act('end'); return; }
    countTutor(id, 'warned');
    advice = r;
    hintBox.replaceChildren(tutorWarning(r, {
      takeBack: async () => {
        const n = g.turn ? g.turn.steps.length : 0;
        for (let k = 0; k < n; k++) await act('undo');
        // The better play stays drawn on the board while the turn lasts.
        hintBox.replaceChildren();
        render();
      },
      endAnyway: async () => { countTutor(id, 'ended'); hintBox.replaceChildren(); await act('end'); },
    }));
    render();
  }

  // Says, in the server's words, why moving the selected piece to `to` is refused.
  async function explain(colour, from, to) {
    await say(() => api.whyNot(id, g.to_move, colour, from, to));
  }

  // Shows the server's reason for a refused click (`ask` asks it), with its rule's link.
  async function say(ask) {
    try {
      const r = await ask();
      if (!r.allowed) toast(inLanguage(r.why, r.why_ru), true, ruleLink(r.rule));
    } catch (e) { toast(e.message, true); }
  }

  // A click on a piece no step moves: with a piece selected, a click on the
  // square it stands on; otherwise the server says why that piece cannot move.
  function onStuck(c, p) {
    if (!isPersonTurn() || !g.turn || busy) return;
    if (sel) {
      const rc = p > 0 ? geometry().tracks[c][p] : null;
      const to = rc ? progressAt(geometry(), sel.c, sel.p, rc[0], rc[1]) : -1;
      if (to > 0) explain(sel.c, sel.p, to); else { sel = null; render(); }
      return;
    }
    say(() => api.whyStuck(id, g.to_move, c, p));
  }

  function onPiece(c, p) {
    sel = sel && sel.c === c && sel.p === p ? null : { c, p };
    render();
  }

  async function onTarget(to) {
    if (!sel) return;
    const options = legal().filter((s) => s.colour === sel.c && s.from === sel.p && s.to === to);
    if (options.length === 0) { await explain(sel.c, sel.p, to); return; }
    const step = options.length === 1 ? options[0] : await chooseStep(options);
    if (step) await act('step', { step });
  }

  // A click on a square that is no target: say why not (or drop the selection).
  function onBoardClick(ev) {
    const rc = ev.target.getAttribute && ev.target.getAttribute('data-rc');
    if (!sel || !rc) { if (sel) { sel = null; render(); } return; }
    const [r, c] = rc.split(',').map(Number);
    const to = progressAt(geometry(), sel.c, sel.p, r, c);
    if (to > 0) explain(sel.c, sel.p, to); else { sel = null; render(); }
  }

  function render() {
    const turn = g.turn;
    const person = isPersonTurn();
    const movable = new Set(person && turn ? legal().map((s) => `${s.colour}:${s.from}`) : []);
    const board = drawBoard(geometry(), g.position, {
      game: g, stacking: gameOption(g, 'stacking'), sel, movable,
      targets: sel && person ? targetsOf(legal(), sel) : [], onPiece, onTarget, onStuck,
    });
    board.addEventListener('click', onBoardClick);
    if (advice) board.append(...bestArrows(geometry(), advice.best.steps));
    // The dice roll when a new throw shows.
    const key = turn ? `${g.moves.length}:${turn.colour}:${turn.throw.join(',')}` : null;
    const rolling = key && key !== lastThrowKey;
    lastThrowKey = key || lastThrowKey;
    const side = sidePanel(g, { id, personTurn: person, rolling, hintBox, act: endOrAsk, showHint, connected, held: api.held(id), changeSeat, chatBox: chatBox.box });
    const boardBox = el('div', { class: 'board-box' }, board);
    wrap.replaceChildren(boardBox, side);
    const ml = side.querySelector('.movelist');
    ml.scrollTop = ml.scrollHeight;
    if (g.outcome !== 'playing') {
      const over = gameOverBox(g, id);
      if (g.tutor) over.querySelector('.over-box').append(tutorSummary(id));
      boardBox.append(over);
    }
  }

  // The owner gives a seat to the computer.
  async function changeSeat(seat, to) {
    try { update(await api.changeSeat(id, seat, to), true); } catch (e) { toast(e.message, true); }
  }

  async function showHint() {
    hintBox.replaceChildren(el('p', { class: 'muted' }, t('loading')));
    try {
      const h = await api.hint(id, g.to_move);
      if (!h.plays.length) { hintBox.replaceChildren(el('p', {}, t('no_hint'))); return; }
      hintBox.replaceChildren(el('h3', {}, t('hint')), el('ol', {}, h.plays.slice(0, 5).map((p) =>
        el('li', {}, el('code', {}, p.notation), ` — ${(p.win * 100).toFixed(1)}% ${t('win_chance')}`,
          p.exact ? ` (${t('exact_race')})` : null))));
    } catch (e) { hintBox.replaceChildren(el('p', { class: 'error' }, e.message)); }
  }

  function update(n, force) {
    if (force || n.version !== g.version || n.outcome !== g.outcome) {
      const turnChanged = JSON.stringify(n.turn && n.turn.steps) !== JSON.stringify(g.turn && g.turn.steps) || n.to_move !== g.to_move;
      if (n.to_move !== g.to_move || n.moves.length !== g.moves.length) advice = null;
      g = n;
      if (turnChanged) { sel = null; hintBox.replaceChildren(); }
      render();
    }
  }

  async function refresh(force) {
    try {
      update(await api.getGame(id), force);
    } catch (_) { /* the next poll tries again */ }
  }

  function onKey(ev) {
    if (typingIn(ev) || document.querySelector('.modal')) return;
    const k = ev.key.toLowerCase();
    const press = { t: 'throw', u: 'undo', e: 'end', h: 'hint' }[k];
    const button = press && document.getElementById(press);
    if (button) button.click();
    else if (k === 'escape' && sel) { sel = null; render(); }
  }

  document.addEventListener('keydown', onKey);
  render();
  live = follow(id, {
    // An action under way takes the newest state when its answer comes.
    state: (n) => { if (!busy) update(n, false); },
    poll: () => { if (!busy) refresh(false); },
    mode: (how) => { wrap.dataset.live = how; },
    chat: (line) => chatBox.add(line),
    presence: (seats) => { connected = seats; if (!busy) render(); },
    deleted: () => { toast(t('deleted'), true); location.hash = '#/'; },
  });
  return () => { live.stop(); document.removeEventListener('keydown', onKey); };
}

// The chat of the players (and of spectators, if the owner let them): kept
// across renders; lines are text, never markup. Answers {box, add(line)}.
function chatPanel(id, g) {
  const seats = Object.keys(api.held(id).seats);
  const list = el('ol', { class: 'chat-lines', id: 'chat-lines' });
  const add = (line) => {
    list.append(el('li', {}, line.seat ? el('span', { class: `dot ${line.seat}` }) : null, ' ',
      el('strong', {}, line.name), ': ', el('span', { class: 'chat-text' }, line.text)));
    list.scrollTop = list.scrollHeight;
  };
  if (!seats.length && !g.spectator_chat) return { box: null, add: () => {} };
  const input = el('input', { id: 'chat-input', maxlength: 280, 'aria-label': t('chat') });
  const form = el('form', { class: 'chat-form' }, input, el('button', { type: 'submit' }, t('send')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (!input.value.trim()) return;
    const name = seats.length ? null : (localStorage.getItem('chaupar.name') || prompt(t('your_name')) || '');
    try {
      await api.sayChat(id, seats[0], name, input.value);
      input.value = '';
    } catch (e) { toast(e.message, true); }
  });
  api.chatLines(id).then((r) => r.lines.forEach(add)).catch(() => {});
  return { box: el('section', { class: 'chat' }, el('h3', {}, t('chat')), list, form), add };
}
