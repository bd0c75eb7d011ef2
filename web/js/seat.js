// A colour's seat panel, drawn in the empty corner beside its arm: its name,
// who plays it, its partner, whether it has captured, its pieces home, and the
// throw while it is to move.
import { sv } from './dom.js';
import { cname, t } from './i18n.js';
import { CELL, FILL, seatCorner } from './layout.js';

/** The SVG group of colour `c`'s panel for position `pos` of game `g` (g may be undefined). */
export function drawSeat(geo, c, pos, g) {
  const [r0, c0] = seatCorner(geo, c);
  const x = c0 * CELL + 14; const y = r0 * CELL + 14;
  const toMove = g && g.to_move === c;
  const grp = sv('g', { class: 'seat-panel' + (toMove ? ' to-move' : '') },
    sv('rect', { x, y, width: 8 * CELL - 28, height: 8 * CELL - 28, rx: 16, fill: '#fffaf0', stroke: toMove ? FILL[c] : '#d8c7a3', 'stroke-width': toMove ? 6 : 2 }),
    sv('circle', { cx: x + 30, cy: y + 34, r: 16, fill: FILL[c], stroke: '#0004' }),
    sv('text', { x: x + 56, y: y + 41, class: 'seat-name' }, cname(c)));
  // The lines of text below the name, each with the room it takes.
  let line = 70;
  const text = (cls, words, room) => {
    grp.append(sv('text', { x: x + 18, y: y + line, class: cls }, words));
    line += room;
  };
  const seat = g && g.seats[c];
  if (seat) text('seat-kind', seat.kind === 'person' ? t('you') : `${t('cpu')} ${seat.level}`, 26);
  if (g && g.teams) text('seat-small', `${cname(c)} + ${cname(g.partners[c])}`, 24);
  const captured = pos.captured.includes(c);
  text('seat-small' + (captured ? ' ok' : ''), `${captured ? '✔' : '✘'} ${t(captured ? 'captured' : 'not_captured')}`, 30);
  // Pieces at home.
  const home = pos.pieces[c].filter((p) => p === geo.home).length;
  const homeY = y + line - 6;
  text('seat-small', `${t('home')}:`, 34);
  for (let i = 0; i < 4; i++) {
    grp.append(sv('circle', { cx: x + 90 + i * 30, cy: homeY, r: 11, fill: i < home ? FILL[c] : 'none', stroke: i < home ? '#0006' : '#c9b58f', 'stroke-width': 2, 'stroke-dasharray': i < home ? null : '3 3', class: i < home ? 'home-piece' : null }));
  }
  if (toMove && g.turn) text('seat-small strong', `${t('thrown')}: ${g.turn.throw.join(' · ')} = ${g.turn.total}`, 0);
  return grp;
}
