// The lessons: #/learn lists them by preset with the ones done marked; #/learn/ID
// poses one: its text, its task, the board with its throw. The board takes only
// the legal steps the server answers (POST /api/lessons/ID/try) and the server
// judges the play when it is ended. Progress is kept in localStorage
// (`chaupar.lessons`: {"done": [ids]}).
import * as api from '../api.js';
import { drawBoard } from '../board.js';
import { diceRow } from '../dice.js';
import { el, toast } from '../dom.js';
import { geometry, meta, preset } from '../facts.js';
import { inLanguage, language, t } from '../i18n.js';
import { progressAt } from '../layout.js';
import { chooseStep, stepLabel, targetsOf } from './game-steps.js';
import { gone } from '../router.js';

const KEY = 'chaupar.lessons';

/** The ids of the lessons done in this browser. */
export function doneLessons() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    return new Set(Array.isArray(v.done) ? v.done : []);
  } catch (_) { return new Set(); }
}

function markDone(id) {
  const done = doneLessons();
  done.add(id);
  try { localStorage.setItem(KEY, JSON.stringify({ done: [...done] })); } catch (_) { /* private mode */ }
}

const words = (w) => (w && (w[language()] || w.en)) || '';

// The lesson in progress when its page was drawn again in place (the same
// hash: the language switched): {hash, id, steps, ended, showing, sel, hint}.
// The next drawing of that lesson takes it up; any other page drops it.
let carried = null;

function takeCarried(id) {
  const c = carried;
  carried = null;
  return c && c.id === id && c.hash === location.hash ? c : null;
}

/** Shows the list of lessons, or lesson `id`, in `main` (unless `signal` says another page was asked for meanwhile). */
export async function learnPage(main, id, signal) {
  const { lessons } = await api.lessons();
  if (gone(signal)) return null;
  const lesson = id && lessons.find((l) => l.id === id);
  if (!lesson) { listPage(main, lessons); return null; }
  return lessonPage(main, lessons, lesson);
}

function listPage(main, lessons) {
  const done = doneLessons();
  const presets = [...new Set(lessons.map((l) => l.preset))];
  const count = lessons.filter((l) => done.has(l.id)).length;
  main.replaceChildren(el('div', { class: 'learn' },
    el('h1', {}, t('learn_title')),
    el('p', {}, t('learn_intro')),
    el('p', { class: 'muted', id: 'learn-progress' }, t('learn_progress').replace('{done}', count).replace('{total}', lessons.length)),
    presets.map((p) => el('section', { class: 'card' },
      el('h2', {}, p, ' ', el('a', { class: 'small', href: `#/rules/${p}` }, t('nav_rules'))),
      el('ol', { class: 'lesson-list' }, lessons.filter((l) => l.preset === p).map((l) => el('li', {
        class: done.has(l.id) ? 'lesson done' : 'lesson', 'data-lesson': l.id,
      }, el('a', { href: `#/learn/${l.id}` }, words(l.title)),
      done.has(l.id) ? el('span', { class: 'done-mark', title: t('learn_done') }, ' ✔') : null)))))));
}

// A game-like object for the board and the seat panels.
function boardGame(lesson, tried) {
  const pos = tried.position;
  const p = preset(lesson.preset);
  const seating = (pos.options && pos.options.seating) || p.values.seating;
  const teams = Boolean(((meta().seating[seating] || {})[String(pos.players)] || {}).teams);
  const partners = {};
  for (const c of meta().colours) partners[c.name] = c.partner;
  return {
    to_move: tried.turn.actor, seats: {}, teams, partners, turn: tried.turn,
    safe_castles: ((pos.options && pos.options.safe) || p.values.safe) === 'castles',
    block_turns: Number((pos.options && pos.options.block_turns) || p.values.block_turns || 3),
  };
}

function lessonPage(main, lessons, lesson) {
  const i = lessons.indexOf(lesson);
  const next = lessons[i + 1];
  const p = preset(lesson.preset);
  const perDie = ((lesson.position.options && lesson.position.options.throw) || p.values.throw) === 'dice';
  const kept = takeCarried(lesson.id);
  let steps = kept ? kept.steps : [];
  let tried = null; // the server's answer for `steps`
  let sel = kept ? kept.sel : null;
  let busy = false;
  // "show me" is playing (or played) the answer; one cut short is not taken up.
  let showing = Boolean(kept && kept.showing && kept.ended);
  let ended = false; // the turn was ended and judged
  let stopped = false;
  const verdict = el('div', { class: 'verdict', id: 'verdict', 'aria-live': 'polite' });
  const hintBox = el('p', { class: 'note hint-text', hidden: !(kept && kept.hint) }, words(lesson.hint));
  const wrap = el('div', { class: 'game learn-lesson', 'data-lesson': lesson.id });
  main.replaceChildren(wrap);

  async function ask(end) {
    return api.tryLesson(lesson.id, steps, end);
  }

  // Asks the server about the steps taken; ends the turn by itself when nothing more can move.
  async function update() {
    busy = true;
    try {
      tried = await ask(false);
      const legal = tried.turn.legal;
      if (tried.turn.can_end && !legal.length) {
        const r = await ask(true);
        tried = Object.assign({}, r);
        judge(r);
      } else { ended = false; verdict.className = 'verdict'; verdict.replaceChildren(); }
    } catch (e) {
      toast(e.message, true);
      steps.pop();
    } finally { busy = false; }
    if (stopped) return;
    if (tried) render();
    else wrap.replaceChildren(el('p', { class: 'error' }, t('error')), el('a', { href: '#/learn' }, t('learn_title')));
  }

  function judge(r) {
    ended = true;
    if (r.solved) {
      if (!showing) markDone(lesson.id);
      verdict.className = 'verdict ok';
      verdict.replaceChildren(el('strong', {}, showing ? t('learn_shown') : t('learn_solved')),
        showing ? el('button', { type: 'button', id: 'again', onclick: reset }, t('learn_again')) : null,
        next ? el('a', { class: 'primary button', href: `#/learn/${next.id}`, id: 'next-lesson' }, t('learn_next')) : null);
    } else {
      verdict.className = 'verdict bad';
      verdict.replaceChildren(el('strong', {}, t('learn_failed')), ' ', language() === 'ru' ? (r.why_ru || r.why) : r.why,
        ' ', el('button', { type: 'button', id: 'again', onclick: reset }, t('learn_again')));
    }
  }

  async function endTurn() {
    if (busy) return;
    try { const r = await ask(true); tried = r; judge(r); render(); } catch (e) { toast(e.message, true); }
  }

  async function take(step) {
    if (busy) return;
    steps.push(step);
    sel = null;
    await update();
  }

  function reset() { if (!busy) { steps = []; sel = null; showing = false; update(); } }
  function undo() { if (!busy && steps.length) { steps.pop(); sel = null; showing = false; update(); } }

  async function showMe() {
    if (busy) return;
    try {
      const a = await api.lessonAnswer(lesson.id);
      steps = [];
      showing = true;
      await update();
      for (const s of a.steps) {
        if (stopped) return;
        await new Promise((done) => setTimeout(done, 500));
        steps.push(s);
        await update();
      }
      if (!a.steps.length) await endTurn();
    } catch (e) { toast(e.message, true); }
  }

  const done = () => Boolean(tried && tried.done);
  const legal = () => (tried && !done() && !showing ? tried.turn.legal : []);

  function onPiece(c, q) { sel = sel && sel.c === c && sel.p === q ? null : { c, p: q }; render(); }
  async function onTarget(to) {
    if (!sel) return;
    const options = legal().filter((s) => s.colour === sel.c && s.from === sel.p && s.to === to);
    if (!options.length) return;
    const step = options.length === 1 ? options[0] : await chooseStep(options);
    if (step) await take(step);
  }

  // The engine's reason for a refused click, with a link to the rule behind it
  // (on the rules page of the lesson's preset), as the game page shows it.
  async function explain(ask) {
    try {
      const r = await ask();
      if (!r.allowed) toast(inLanguage(r.why, r.why_ru), true, r.rule ? { href: `#/rules/${lesson.preset}/${r.rule}`, text: t('the_rule') } : null);
    } catch (e) { toast(e.message, true); }
  }

  // Why the selected piece cannot go to the square [r, c] (or the selection is dropped).
  function explainSquare(r, c) {
    const to = sel ? progressAt(geometry(), sel.c, sel.p, r, c) : -1;
    if (to <= 0) { if (sel) { sel = null; render(); } return; }
    const { c: colour, p: from } = sel;
    explain(() => api.checkLesson(lesson.id, steps, colour, from, to));
  }

  // A click on a square that is no target: the engine says why not.
  function onBoardClick(ev) {
    const rc = ev.target.getAttribute && ev.target.getAttribute('data-rc');
    if (!rc) { if (sel) { sel = null; render(); } return; }
    explainSquare(...rc.split(',').map(Number));
  }

  // A click on a piece no step moves: with a piece selected, a click on the
  // square it stands on; otherwise the engine says why that piece cannot move.
  function onStuck(c, q) {
    if (!tried || done() || showing) return;
    if (sel) {
      const rc = q > 0 ? geometry().tracks[c][q] : null;
      if (rc) explainSquare(rc[0], rc[1]); else { sel = null; render(); }
      return;
    }
    explain(() => api.checkLessonPiece(lesson.id, steps, c, q));
  }

  function render() {
    const g = boardGame(lesson, tried);
    const movable = new Set(legal().map((s) => `${s.colour}:${s.from}`));
    const board = drawBoard(geometry(), tried.position, {
      game: g, stacking: (lesson.position.options && lesson.position.options.stacking) || p.values.stacking,
      sel, movable, targets: sel ? targetsOf(legal(), sel) : [], onPiece, onTarget, onStuck,
    });
    board.addEventListener('click', onBoardClick);
    const left = perDie ? `${t('dice_left')}: ${tried.turn.dice_left.join(', ') || '—'}` : `${t('points_left')}: ${tried.turn.points_left}`;
    const side = el('aside', { class: 'side' },
      el('p', { class: 'muted small' }, el('a', { href: '#/learn' }, t('learn_title')), ` · ${lesson.preset} · ${i + 1}/${lessons.length}`),
      el('h1', { class: 'lesson-title' }, words(lesson.title)),
      el('p', { class: 'lesson-text' }, words(lesson.text)),
      el('p', { class: 'task', id: 'task' }, el('strong', {}, `${t('learn_task')}: `), words(lesson.task)),
      diceRow(tried.turn, perDie, false),
      el('p', { class: 'muted', id: 'left' }, left, tried.turn.notation && tried.turn.notation !== '-' ? ` · ${tried.turn.notation}` : ''),
      tried.turn.passed ? el('p', { class: 'note' }, t('actor_partner')) : null,
      verdict,
      el('div', { class: 'buttons' },
        el('button', { type: 'button', id: 'undo', disabled: !steps.length || busy, onclick: undo }, t('undo')),
        tried.turn.can_end && !done() ? el('button', { type: 'button', id: 'end', class: 'primary', onclick: endTurn }, t('end')) : null,
        el('button', { type: 'button', id: 'hint', onclick: () => { hintBox.hidden = !hintBox.hidden; } }, t('hint')),
        el('button', { type: 'button', id: 'show-me', onclick: showMe }, t('learn_show')),
        next ? el('a', { class: 'button', href: `#/learn/${next.id}`, id: 'next' }, t('learn_next')) : null),
      hintBox,
      !done() && legal().length ? el('p', { class: 'muted small' }, t('pick_piece')) : null,
      steps.length ? el('ol', { class: 'small' }, steps.map((s) => el('li', {}, stepLabel(s)))) : null,
      el('p', { class: 'muted small' }, t('legend')));
    wrap.replaceChildren(el('div', { class: 'board-box' }, board), side);
  }

  // Drawn again in place (the language switched), the lesson goes on where it was:
  // the steps, the selection, the verdict of an ended turn.
  async function start() {
    await update();
    if (kept && kept.ended && !ended && !stopped && tried && !tried.done) await endTurn();
  }

  start();
  return () => {
    stopped = true;
    carried = { hash: location.hash, id: lesson.id, steps: steps.slice(), ended, showing, sel, hint: !hintBox.hidden };
  };
}
