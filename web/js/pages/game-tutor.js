// Tutor mode (a game made with "tutor": true): when the person presses End,
// the server judges the turn's steps as one play against the best
// (POST /api/games/{id}/tutor, read-only); a play that loses more than the
// game's threshold gets a warning, the better play drawn on the board as
// arrows, and the choice to take the turn back or to end it anyway.
//
// The warnings are counted here, in the browser (localStorage
// `chaupar.tutor.<id>`: {warned, ended}): the check changes nothing in the
// game, and only the page knows whether the person heeded a warning.
import { el, sv } from '../dom.js';
import { count, t } from '../i18n.js';
import { FILL, pieceAt } from '../layout.js';

const key = (id) => `chaupar.tutor.${id}`;

/** The warnings counted for game `id`: {warned, ended} (ended: ended anyway). */
export function tutorCount(id) {
  let c = null;
  try { c = JSON.parse(localStorage.getItem(key(id)) || 'null'); } catch (_) { c = null; }
  return { warned: (c && c.warned) || 0, ended: (c && c.ended) || 0 };
}

/** Counts one more warning, or one more play ended in spite of it (`what`: 'warned' or 'ended'). */
export function countTutor(id, what) {
  const c = tutorCount(id);
  c[what] += 1;
  try { localStorage.setItem(key(id), JSON.stringify(c)); } catch (_) { /* private mode: not kept */ }
}

const pct = (x) => `${(100 * x).toFixed(1)}`;

/**
 * The warning shown in the side panel for the tutor's answer `r`
 * ({loss, best: {play}, yours: {play}}), with its two buttons.
 */
export function tutorWarning(r, { takeBack, endAnyway }) {
  return el('div', { class: 'tutor-warning', id: 'tutor-warning', role: 'alert' },
    el('h3', {}, t('tutor')),
    el('p', {}, `${t('tutor_loses')} ${pct(r.loss)}% ${t('tutor_against')} `, el('code', { id: 'tutor-best' }, r.best.play),
      ` (${pct(r.best.win)}% ${t('win_chance')}; ${t('tutor_yours')} `, el('code', {}, r.yours.play), ` ${pct(r.yours.win)}%).`),
    el('p', { class: 'muted small' }, t('tutor_arrows')),
    el('div', { class: 'buttons' },
      el('button', { type: 'button', class: 'primary', id: 'tutor-takeback', onclick: takeBack }, t('tutor_takeback')),
      el('button', { type: 'button', id: 'tutor-end', onclick: endAnyway }, t('tutor_end_anyway'))));
}

/** Arrows on the board for the steps of the better play (each from its square to where it lands). */
export function bestArrows(geo, steps) {
  const out = [sv('defs', {}, sv('marker', { id: 'tutor-head', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
    sv('path', { d: 'M0 0L10 5L0 10z', fill: '#1b6fd1' })))];
  for (const s of steps) {
    const a = pieceAt(geo, s.colour, s.from);
    const track = geo.tracks[s.colour];
    const b = pieceAt(geo, s.colour, s.to) || pieceAt(geo, s.colour, track.length - 1);
    if (!a || !b) continue;
    out.push(sv('line', { class: 'tutor-arrow', 'data-from': s.from, 'data-to': s.to, x1: a[0], y1: a[1], x2: b[0], y2: b[1],
      stroke: '#1b6fd1', 'stroke-width': 5, 'stroke-opacity': 0.8, 'stroke-linecap': 'round', 'marker-end': 'url(#tutor-head)' }));
    out.push(sv('circle', { class: 'tutor-target', cx: b[0], cy: b[1], r: 15, fill: 'none', stroke: FILL[s.colour] || '#1b6fd1', 'stroke-width': 3, 'stroke-dasharray': '4 3' }));
  }
  return out;
}

/** The line of the game-over box: how many times the tutor warned, in words ("Tutor: 2 warnings (1 play ended anyway)"). */
export function tutorSummary(id) {
  const c = tutorCount(id);
  return el('p', { id: 'tutor-count' }, `${t('tutor')}: ${count(c.warned, 'n_tutor_warnings')}`
    + (c.warned ? ` (${count(c.ended, 'n_tutor_ended')})` : ''));
}
