// The board, drawn as SVG: a pure function of the position, the geometry and
// what the page wants shown (whose turn, the selection, targets). It keeps no
// state; the page draws it again after every change.
//
// drawBoard(geo, pos, opts)
//   geo   GET /api/board
//   pos   position JSON, or null for an empty board
//   opts  {game, stacking, sel: {c, p}, movable: Set("colour:progress"),
//          targets: [{to, xy, short, label}], onPiece(c, p), onTarget(to),
//          onStuck(c, p)?: a click on a piece that is not movable}
import { sv } from './dom.js';
import { cname, t } from './i18n.js';
import { CELL, FILL, INK, N, pieceAt } from './layout.js';
import { drawSeat } from './seat.js';

/** The SVG of the board with `pos` on it (see the top of this file). */
export function drawBoard(geo, pos, opts) {
  const svg = sv('svg', { viewBox: `-4 -4 ${N * CELL + 8} ${N * CELL + 8}`, class: 'board', role: 'img', 'aria-label': t('board_label') });
  svg.append(defs(), ...cloth(), ...squares(geo, !opts.game || opts.game.safe_castles), ...charkoni());
  // Each colour's arm start and seat panel.
  for (const c of pos ? Object.keys(pos.pieces) : []) {
    const first = geo.tracks[c][1];
    svg.append(sv('rect', { x: first[1] * CELL + 5, y: first[0] * CELL + 5, width: CELL - 10, height: CELL - 10, rx: 6, fill: 'none', stroke: FILL[c], 'stroke-width': 4 }));
    svg.append(drawSeat(geo, c, pos, opts.game));
  }
  svg.append(...lastTurn(geo, opts.game));
  if (pos) svg.append(...pieces(geo, pos, opts));
  svg.append(...(opts.targets || []).map((tg) => target(tg, opts.onTarget)));
  return svg;
}

function defs() {
  return sv('defs', {},
    sv('pattern', { id: 'cloth', width: 8, height: 8, patternUnits: 'userSpaceOnUse' },
      sv('rect', { width: 8, height: 8, fill: '#8b2b1e' }),
      sv('path', { d: 'M0 8L8 0', stroke: '#7a2417', 'stroke-width': 1 })),
    sv('radialGradient', { id: 'shine', cx: '35%', cy: '30%', r: '70%' },
      sv('stop', { offset: '0%', 'stop-color': '#fff', 'stop-opacity': 0.55 }),
      sv('stop', { offset: '60%', 'stop-color': '#fff', 'stop-opacity': 0 })));
}

// The wooden frame, the cloth and the cross of cloth.
function cloth() {
  return [
    sv('rect', { x: -4, y: -4, width: N * CELL + 8, height: N * CELL + 8, rx: 18, fill: '#3b1d12' }),
    sv('rect', { x: 0, y: 0, width: N * CELL, height: N * CELL, rx: 14, fill: '#f1e4c6' }),
    sv('rect', { x: 8 * CELL - 2, y: -1, width: 3 * CELL + 4, height: N * CELL + 2, fill: 'url(#cloth)', rx: 6 }),
    sv('rect', { x: -1, y: 8 * CELL - 2, width: N * CELL + 2, height: 3 * CELL + 4, fill: 'url(#cloth)', rx: 6 }),
  ];
}

// The playing squares, castles crossed in gold where they are safe.
function squares(geo, showCastles) {
  const castles = new Set(geo.castles.map((rc) => rc.join(',')));
  const out = [];
  for (const [r, c] of geo.squares) {
    const castle = castles.has(`${r},${c}`) && showCastles;
    out.push(sv('rect', { x: c * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 4,
      class: 'sq', fill: castle ? '#e9b949' : '#f6e7c1', stroke: '#5c1c10', 'stroke-width': 1.2, 'data-rc': `${r},${c}` }));
    if (castle) {
      const x = c * CELL + CELL / 2; const y = r * CELL + CELL / 2;
      out.push(sv('path', { d: `M${x - 11} ${y - 11}L${x + 11} ${y + 11}M${x + 11} ${y - 11}L${x - 11} ${y + 11}`, stroke: '#7a2417', 'stroke-width': 2, opacity: 0.55 }));
    }
  }
  return out;
}

// The Charkoni, the centre.
function charkoni() {
  return [
    sv('rect', { x: 8 * CELL + 2, y: 8 * CELL + 2, width: 3 * CELL - 4, height: 3 * CELL - 4, rx: 8, fill: '#2a6f4d', stroke: '#1b4a33', 'stroke-width': 2, class: 'charkoni' }),
    sv('path', { d: `M${8 * CELL + 6} ${8 * CELL + 6}L${11 * CELL - 6} ${11 * CELL - 6}M${11 * CELL - 6} ${8 * CELL + 6}L${8 * CELL + 6} ${11 * CELL - 6}`, stroke: '#e9c46a', 'stroke-width': 1.5, opacity: 0.5 }),
  ];
}

// Where the last turn's pieces came from and went to (until the next throw).
function lastTurn(geo, g) {
  const out = [];
  for (const st of (g && g.last && !g.turn ? g.last.steps : [])) {
    for (const [p, cls] of [[st.from, 'last-from'], [st.to, 'last-to']]) {
      if (p === geo.home) continue;
      const xy = pieceAt(geo, st.colour, p);
      if (xy) out.push(sv('rect', { x: xy[0] - CELL / 2 + 3, y: xy[1] - CELL / 2 + 3, width: CELL - 6, height: CELL - 6, rx: 5, class: cls, stroke: FILL[st.colour] }));
    }
  }
  return out;
}

// The units on the board, grouped by cell so that several on one square sit side by side.
function unitsByCell(geo, pos) {
  const cells = new Map();
  const blocks = pos.blocks || [];
  for (const c of Object.keys(pos.pieces)) {
    const counts = new Map();
    for (const p of pos.pieces[c]) if (p !== geo.home) counts.set(p, (counts.get(p) || 0) + 1);
    for (const [p, n] of counts) {
      const xy = pieceAt(geo, c, p);
      if (!xy) continue;
      const key = xy.join(',');
      if (!cells.has(key)) cells.set(key, []);
      const block = blocks.find((b) => b.colour === c && b.progress === p);
      cells.get(key).push({ c, p, n, xy, block });
    }
  }
  return cells.values();
}

function pieces(geo, pos, opts) {
  const out = [];
  for (const units of unitsByCell(geo, pos)) {
    units.forEach((u, i) => {
      const k = units.length;
      const dx = k === 1 ? 0 : (i - (k - 1) / 2) * (u.p === 0 ? 24 : 14);
      out.push(piece(u, u.xy[0] + dx, u.xy[1], opts));
    });
  }
  return out;
}

// Calls `fn` on a click, or on Enter or Space.
function pressed(fn) {
  return {
    onclick: (ev) => { ev.stopPropagation(); fn(); },
    onkeydown: (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); fn(); } },
  };
}

// One unit: a piece, a super-piece, a group or a block, at (cx, cy).
function piece(u, cx, cy, opts) {
  const movable = opts.movable && opts.movable.has(`${u.c}:${u.p}`);
  const selected = opts.sel && opts.sel.c === u.c && opts.sel.p === u.p;
  const r = u.p === 0 ? 10 : 13;
  const press = movable && opts.onPiece ? pressed(() => opts.onPiece(u.c, u.p))
    : opts.onStuck ? { onclick: (ev) => { ev.stopPropagation(); opts.onStuck(u.c, u.p); } } : {};
  const grp = sv('g', { class: 'piece' + (movable ? ' movable' : '') + (selected ? ' selected' : ''),
    'data-colour': u.c, 'data-progress': u.p, 'data-count': u.n,
    tabindex: movable ? 0 : null, role: movable ? 'button' : null,
    'aria-label': `${cname(u.c)} ${u.p === 0 ? t('start_area') : u.p} ×${u.n}`, ...press });
  // A larger invisible area to tap on a small screen.
  if (movable) grp.append(sv('circle', { cx, cy, r: 19, fill: 'transparent', class: 'hit' }));
  if (u.n > 1 && u.p !== 0) grp.append(sv('circle', { cx: cx + 2, cy: cy + 3, r, fill: FILL[u.c], stroke: '#0008', 'stroke-width': 1.5 }));
  if (u.block) grp.append(sv('rect', { x: cx - r - 3, y: cy - r - 3, width: 2 * r + 6, height: 2 * r + 6, rx: 4, fill: 'none', stroke: '#111', 'stroke-width': 2.5, 'stroke-dasharray': '4 2' }));
  grp.append(sv('circle', { cx, cy, r, fill: FILL[u.c], stroke: u.c === 'black' ? '#bbb' : '#0008', 'stroke-width': 1.5 }));
  grp.append(sv('circle', { cx, cy, r, fill: 'url(#shine)' }));
  if (u.n > 1 && u.p !== 0 && opts.stacking === 'group') {
    // A group: pieces that stand together (they move together only with a pair).
    grp.append(sv('rect', { x: cx + r - 12, y: cy - r - 6, width: 20, height: 16, rx: 3, fill: '#fff', stroke: '#333', 'stroke-width': 1 }));
    grp.append(sv('text', { x: cx + r - 2, y: cy - r + 6, 'text-anchor': 'middle', class: 'count' }, `${u.n}g`));
  } else if (u.n > 1) {
    grp.append(sv('circle', { cx: cx + r - 2, cy: cy - r + 2, r: 8, fill: '#fff', stroke: '#333', 'stroke-width': 1 }));
    grp.append(sv('text', { x: cx + r - 2, y: cy - r + 6, 'text-anchor': 'middle', class: 'count' }, u.n));
  }
  if (u.block) {
    const left = Math.max(0, (opts.game ? opts.game.block_turns : 0) - u.block.age);
    grp.append(sv('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'blk', fill: INK[u.c] }, `B${left}`));
  }
  return grp;
}

// A place a selected piece may go: a ring with its distance, to click.
function target(tg, onTarget) {
  const [cx, cy] = tg.xy;
  return sv('g', { class: 'target', tabindex: 0, role: 'button', 'aria-label': tg.label, 'data-to': tg.to, ...pressed(() => onTarget(tg.to)) },
    sv('circle', { cx, cy, r: 19, fill: 'transparent' }),
    sv('circle', { cx, cy, r: 17, class: 'target-ring' }),
    sv('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'target-text' }, tg.short || ''));
}
