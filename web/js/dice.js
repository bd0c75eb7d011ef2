// The long dice of Chaupar, drawn as SVG, and the row of a turn's dice.
import { el, sv } from './dom.js';

// The pips' heights on a face of each value.
const PIPS = { 1: [48], 2: [32, 64], 3: [24, 48, 72], 4: [18, 38, 58, 78], 5: [14, 31, 48, 65, 82], 6: [12, 27, 42, 57, 72, 87] };

/** A long die seen from above: one face up, its pips in a row; `rolling` shakes it. */
export function die(value, rolling) {
  const w = 34; const h = 96;
  const s = sv('svg', { viewBox: `0 0 ${w} ${h}`, class: 'die' + (rolling ? ' rolling' : ''), width: w, height: h, role: 'img', 'aria-label': String(value) });
  s.append(sv('rect', { x: 1, y: 1, width: w - 2, height: h - 2, rx: 8, fill: '#fdf6e3', stroke: '#6b4a2b', 'stroke-width': 2 }));
  for (const y of PIPS[value] || []) s.append(sv('circle', { cx: w / 2, cy: y, r: 4.5, fill: value === 1 ? '#b3261e' : '#222' }));
  return s;
}

/**
 * The dice of a turn: `turn` null shows three idle dice; with `perDie` (throw=dice)
 * the dice already used (not in turn.dice_left) are dimmed.
 */
export function diceRow(turn, perDie, rolling) {
  const box = el('div', { class: 'dice', 'aria-live': 'polite' });
  if (!turn) {
    box.append(...[1, 1, 1].map(() => { const d = die(1, false); d.classList.add('idle'); return d; }));
    return box;
  }
  const left = turn.dice_left.slice();
  box.append(...turn.throw.map((v) => {
    const d = die(v, rolling);
    const k = left.indexOf(v);
    if (perDie && k < 0) d.classList.add('used'); else if (k >= 0) left.splice(k, 1);
    return d;
  }));
  return box;
}
