// The replay page: a finished or running game position by position, with a
// slider, buttons and arrow keys, and the review of every play.
import * as api from '../api.js';
import { drawBoard } from '../board.js';
import { die } from '../dice.js';
import { el } from '../dom.js';
import { gameOption, geometry } from '../facts.js';
import { cname, language, sideName, t, count } from '../i18n.js';
import { gone } from '../router.js';

/** Shows the replay of game `id` in `main` (unless `signal` says another page was asked for meanwhile); answers the function that removes its key handler. */
export async function replayPage(main, id, signal) {
  const r = await api.replay(id);
  if (gone(signal)) return null;
  const g = await api.getGame(id);
  if (gone(signal)) return null;
  const last = r.frames.length - 1;
  let i = last;
  const boardBox = el('div', { class: 'board-box' });
  const label = el('p', { class: 'status' });
  const slider = el('input', { type: 'range', min: 0, max: last, value: i, 'aria-label': t('frame_label'), oninput: () => { i = Number(slider.value); show(); } });
  const diceBox = el('div', { class: 'dice' });
  const reviewBox = el('div', { class: 'review' });
  // The review's graph goes under the board, where it has the width to read.
  const graphBox = el('div', { class: 'graph-box', id: 'graph-box' });
  const stacking = gameOption(g, 'stacking');
  function show() {
    const f = r.frames[i];
    const game = Object.assign({}, g, { to_move: f.colour || null, turn: null });
    boardBox.replaceChildren(drawBoard(geometry(), f.position, { game, stacking }));
    label.textContent = i === 0 ? t('first') : `${f.turn}. ${cname(f.colour)} — ${f.notation}` + (f.step ? ` (${t('step_of')} ${f.step})` : '');
    diceBox.replaceChildren(...(f.throw ? f.throw.map((v) => die(v)) : []));
    slider.value = i;
    // The graph's point of the turn shown.
    for (const p of graphBox.querySelectorAll('.review-graph .point.current')) p.classList.remove('current');
    const p = f.turn && graphBox.querySelector(`.review-graph .point[data-turn="${f.turn}"]`);
    if (p) p.classList.add('current');
  }
  const go = (n) => { i = Math.max(0, Math.min(last, n)); show(); };
  // The first frame of a turn (its throw), from the review's list.
  const goTurn = (turn) => {
    const k = r.frames.findIndex((f) => f.turn === turn && f.step === 0);
    if (k >= 0) go(k);
  };
  const playing = g.outcome === 'playing';
  const side = el('aside', { class: 'side' },
    el('h2', {}, `${t('replay')} ${id}`), el('p', { class: 'muted' }, r.rules), label, diceBox, slider,
    el('div', { class: 'buttons' },
      el('button', { type: 'button', onclick: () => go(0) }, '«« ' + t('first')),
      el('button', { type: 'button', id: 'prev', onclick: () => go(i - 1) }, '◀ ' + t('prev')),
      el('button', { type: 'button', id: 'next', onclick: () => go(i + 1) }, t('next') + ' ▶'),
      el('button', { type: 'button', onclick: () => go(last) }, t('last') + ' »»')),
    el('p', { class: 'links' }, el('a', { href: api.recordUrl(id), download: `chaupar-${id}.txt` }, t('export')), ' · ',
      playing ? el('a', { href: `#/game/${id}` }, t('resume')) : null, playing ? ' · ' : null,
      el('a', { href: '#/' }, t('lobby'))),
    g.winner ? el('p', { class: 'status over' }, `${t('winner')}: ${sideName(g.winner)}`) : null,
    el('button', { type: 'button', id: 'review', onclick: () => showReview(id, reviewBox, graphBox, goTurn) }, t('review')),
    reviewBox,
    el('p', { class: 'muted small' }, t('keys')));
  const onKey = (ev) => {
    if (ev.target.tagName === 'INPUT' && ev.target.type !== 'range') return;
    if (ev.key === 'ArrowLeft') { ev.preventDefault(); go(i - 1); }
    if (ev.key === 'ArrowRight') { ev.preventDefault(); go(i + 1); }
    if (ev.key === 'Home') go(0);
    if (ev.key === 'End') go(last);
  };
  document.addEventListener('keydown', onKey);
  main.replaceChildren(el('div', { class: 'game' }, el('div', { class: 'replay-main' }, boardBox, graphBox), side));
  show();
  return () => document.removeEventListener('keydown', onKey);
}

const MARKS = { doubtful: '?!', bad: '?', 'very bad': '??' };
const VERDICT = { doubtful: 'v_doubtful', bad: 'v_bad', 'very bad': 'v_very_bad' };
const pct = (x) => `${(100 * x).toFixed(1)}%`;

// The review: each side's error rate and luck, and the plays that lost 2% or
// more, each a link to its turn in the replay (goTurn); the graph of the
// whole game in `graphBox`, each turn's point a link to it too.
async function showReview(id, box, graphBox, goTurn) {
  box.replaceChildren(el('p', { class: 'muted' }, t('reviewing')));
  try {
    const [rv, graph] = await Promise.all([api.review(id), api.reviewSvg(id, language()).then(graphOf, () => null)]);
    if (graph) graph.addEventListener('click', (ev) => {
      const n = ev.target.closest && ev.target.closest('[data-turn]');
      if (n) goTurn(Number(n.getAttribute('data-turn')));
    });
    const sides = el('ul', { class: 'review-sides' }, rv.sides.map((sd) => el('li', {},
      el('strong', {}, sideName(sd.side)),
      `: ${count(sd.unforced, 'n_unforced')}, ${t('error_rate')} ${pct(sd.error_rate)}; `,
      `${sd.doubtful} ?!, ${sd.bad} ?, ${sd.very_bad} ??; ${t('luck')} ${sd.luck >= 0 ? '+' : ''}${pct(sd.luck)}`)));
    const worst = rv.turns.filter((x) => MARKS[x.verdict]);
    const list = worst.length ? el('ol', { class: 'review-list' }, worst.map((x) => el('li', { value: x.turn },
      el('a', { href: '#', onclick: (ev) => { ev.preventDefault(); goTurn(x.turn); } }, `${cname(x.colour)} ${x.throw}: ${x.played} ${MARKS[x.verdict]}`),
      ` ${t(VERDICT[x.verdict])}, −${pct(x.loss)}; ${t('best_was')} ${x.best}`)))
      : el('p', {}, t('no_mistakes'));
    graphBox.replaceChildren(...(graph ? [graph, el('p', { class: 'muted small' }, t('graph_about'))] : []));
    box.replaceChildren(el('h3', {}, t('review_title')), sides, list, el('p', { class: 'muted small' }, t('review_about')));
  } catch (e) { box.replaceChildren(el('p', { class: 'error' }, e.message)); }
}

// The review's graph (GET .../review.svg) as a live SVG element of the page, so
// that its points take clicks.
function graphOf(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.nodeName !== 'svg') return null;
  return document.importNode(root, true);
}
