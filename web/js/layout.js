// Where things stand on the drawn board, in SVG units, from the server's
// geometry (GET /api/board), and the colours they are painted in.

/** The side of one square. */
export const CELL = 40;
/** Squares along a side of the board. */
export const N = 19;
/** Each colour's paint, and the ink written on it. */
export const FILL = { yellow: '#f3c623', red: '#c8372d', black: '#262626', green: '#2e8b57' };
export const INK = { yellow: '#3a2a00', red: '#fff', black: '#fff', green: '#fff' };

// The arm of the cross a [row, col] lies on.
function armOf([r, c]) {
  if (r > 10) return 'bottom';
  if (r < 8) return 'top';
  if (c < 8) return 'left';
  return 'right';
}
// The empty corner beside each arm, where its colour's seat panel goes.
const CORNER = { bottom: [11, 0], left: [0, 0], top: [0, 11], right: [11, 11] };
// The part of the Charkoni toward each arm (pieces waiting in the centre).
const CENTRE = { bottom: [10.05, 9], left: [9, 7.95], top: [7.95, 9], right: [9, 10.05] };

/** The [row, col] of the corner where colour `c`'s seat panel goes. */
export const seatCorner = (geo, c) => CORNER[armOf(geo.tracks[c][1])];

/** The centre [x, y] of a square given as [row, col] (fractions allowed). */
export const centreOf = ([r, c]) => [c * CELL + CELL / 2, r * CELL + CELL / 2];

/** The [x, y] of colour `c`'s piece at progress `p` (null where it is not drawn, e.g. home). */
export function pieceAt(geo, c, p) {
  if (p === 0) return centreOf(CENTRE[armOf(geo.tracks[c][1])]);
  const rc = geo.tracks[c][p];
  return rc ? centreOf(rc) : null;
}

/** The progress number of the square [r, c] on colour `c`'s track after `from` (-1 if none). */
export function progressAt(geo, c, from, r, col) {
  const track = geo.tracks[c];
  for (let p = from + 1; p < track.length; p++) if (track[p] && track[p][0] === r && track[p][1] === col) return p;
  return -1;
}
