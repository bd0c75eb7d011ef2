// The puzzles page: #/puzzles/PRESET lists a preset's puzzles (solved ones
// ticked), #/puzzles/PRESET/N poses one: "your throw: 6, 5, 1; find the best
// play". The board takes the person's steps (the server lists the legal ones),
// and after the play the server says whether it was the best and shows the
// expert's ranking. Solved puzzles are remembered in localStorage.
import * as api from '../api.js';
import { drawBoard } from '../board.js';
import { el, toast } from '../dom.js';
import { geometry, preset } from '../facts.js';
import { cname, t } from '../i18n.js';
import { chooseStep, targetsOf } from './game-steps.js';
import { gone } from '../router.js';

const PRESETS = ['chaupar', 'chausar', 'classic'];
const SOLVED = 'chaupar.puzzles.solved';

/** The puzzles solved here: {preset: [n, ...]}. */
function solved() {
  try { return JSON.parse(localStorage.getItem(SOLVED) || '{}') || {}; } catch (_) { return {}; }
}

function markSolved(rules, n) {
  const s = solved();
  s[rules] = [...new Set([...(s[rules] || []), n])];
  try { localStorage.setItem(SOLVED, JSON.stringify(s)); } catch (_) { /* private mode: not kept */ }
}

/** Shows #/puzzles[/PRESET[/N]] in `main` (unless `signal` says another page was asked for meanwhile). */
export async function puzzlesPage(main, _arg, signal) {
  const [, rulesArg, nArg] = location.hash.replace(/^#\/?/, '').split('/');
  const rules = PRESETS.includes(rulesArg) ? rulesArg : 'chaupar';
  if (nArg !== undefined && nArg !== '') return puzzleAt(main, rules, Number(nArg), signal);
  const list = await api.puzzles(rules);
  if (gone(signal)) return null;
  const done = new Set(solved()[rules] || []);
  main.replaceChildren(el('section', { class: 'puzzles' },
    el('h2', {}, t('puzzles')),
    el('p', {}, t('puzzles_intro')),
    el('nav', { class: 'tabs' }, PRESETS.map((p) => el('a', { href: `#/puzzles/${p}`, class: p === rules ? 'active' : null }, (preset(p) && preset(p).name) || p))),
    el('p', { class: 'muted', id: 'puzzles-solved' }, `${t('puzzles_solved')}: ${done.size} / ${list.puzzles.length}`),
    el('ol', { class: 'puzzle-list' }, list.puzzles.map((p) =>
      el('li', {}, el('a', { href: `#/puzzles/${rules}/${p.n}`, class: 'puzzle-link', 'data-n': p.n },
        `${done.has(p.n) ? '✔ ' : ''}${t('puzzle')} ${p.n + 1} · ${cname(p.colour)} · ${p.throw.join(', ')}`))))));
}

// One puzzle: the board taking steps until the play is done, then the verdict.
async function puzzleAt(main, rules, n, signal) {
  const first = await api.puzzle(rules, n);
  if (gone(signal)) return null;
  const p = first.puzzle;
  const count = (await api.puzzles(rules)).puzzles.length;
  if (gone(signal)) return null;
  let view = first; // {puzzle, position, turn}
  let steps = [];
  let sel = null;
  let verdict = null; // the server's answer once given
  let busy = false;
  const wrap = el('div', { class: 'game puzzle' });
  main.replaceChildren(wrap);

  const legal = () => (verdict ? [] : view.turn.legal || []);
  // The board needs a little of a game: who is to move, the throw, the rules' look.
  const game = () => ({
    preset: rules, to_move: p.colour, seats: { [p.colour]: { kind: 'person', level: 0 } },
    turn: view.turn, safe_castles: p.safe_castles, block_turns: p.block_turns,
  });

  async function go(next) {
    if (busy) return;
    busy = true;
    try {
      view = await api.tryPuzzle(rules, n, next);
      steps = next;
      sel = null;
      render();
    } catch (e) { toast(e.message, true); } finally { busy = false; }
  }

  async function answer() {
    if (busy) return;
    busy = true;
    try {
      verdict = await api.answerPuzzle(rules, n, steps);
      if (verdict.correct) markSolved(rules, n);
      render();
    } catch (e) { toast(e.message, true); } finally { busy = false; }
  }

  function onPiece(c, pr) {
    sel = sel && sel.c === c && sel.p === pr ? null : { c, p: pr };
    render();
  }

  async function onTarget(to) {
    if (!sel) return;
    const options = legal().filter((s) => s.colour === sel.c && s.from === sel.p && s.to === to);
    if (!options.length) return;
    const step = options.length === 1 ? options[0] : await chooseStep(options);
    if (step) await go([...steps, step]);
  }

  function render() {
    const movable = new Set(legal().map((s) => `${s.colour}:${s.from}`));
    const board = drawBoard(geometry(), view.position, {
      game: game(), stacking: preset(rules) && preset(rules).values.stacking, sel, movable,
      targets: sel ? targetsOf(legal(), sel) : [], onPiece, onTarget,
    });
    const task = el('p', { class: 'puzzle-task', id: 'puzzle-task' },
      `${cname(p.colour)} — ${t('puzzle_throw')}: ${p.throw.join(', ')}; ${t('puzzle_find')}`);
    const buttons = verdict ? null : el('div', { class: 'buttons' },
      el('button', { type: 'button', id: 'puzzle-undo', disabled: !steps.length, onclick: () => go(steps.slice(0, -1)) }, t('undo')),
      el('button', { type: 'button', id: 'puzzle-done', class: 'primary', disabled: !view.turn.can_end, onclick: answer }, t('puzzle_done')));
    const side = el('aside', { class: 'side' },
      el('h2', {}, `${t('puzzle')} ${n + 1} / ${count}`),
      task,
      el('p', { class: 'muted' }, `${t('puzzle_your_play')}: `, el('code', { id: 'puzzle-play' }, view.turn.notation || '—')),
      buttons,
      verdict ? result() : null,
      el('p', {}, el('a', { href: `#/puzzles/${rules}` }, t('puzzles_all'))));
    wrap.replaceChildren(el('div', { class: 'board-box' }, board), side);
  }

  // Right or wrong, and the expert's ranking with win chances.
  function result() {
    const pct = (w) => `${(w * 100).toFixed(1)}%`;
    const next = n + 1 < count ? el('a', { href: `#/puzzles/${rules}/${n + 1}`, id: 'puzzle-next', class: 'button' }, t('puzzle_next')) : null;
    return el('section', { class: 'puzzle-result', id: 'puzzle-result', 'data-correct': String(verdict.correct) },
      el('h3', { class: verdict.correct ? 'ok' : 'error' }, t(verdict.correct ? 'puzzle_correct' : 'puzzle_wrong')),
      verdict.correct ? null : el('p', {}, `${t('puzzle_best')}: `, el('code', {}, verdict.best)),
      el('p', { class: 'muted' }, `${t('puzzle_margin')}: ${pct(verdict.margin)}`),
      el('h4', {}, t('puzzle_ranking')),
      el('ol', { class: 'puzzle-ranking', id: 'puzzle-ranking' }, verdict.ranking.map((r) =>
        el('li', { class: r.play === verdict.yours.play ? 'yours' : null }, el('code', {}, r.play), ` — ${pct(r.win)} ${t('win_chance')}`))),
      verdict.yours.win === null ? el('p', {}, `${t('puzzle_yours')}: `, el('code', {}, verdict.yours.play), ` — ${t('puzzle_not_ranked')}`) : null,
      next);
  }

  render();
}
