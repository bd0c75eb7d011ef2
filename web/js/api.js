// The server's JSON API (docs/api.md): one function a request, so that every
// URL and body the page sends is written here once.
import { inLanguage } from './i18n.js';

/** Sends a request; answers the parsed JSON, or throws an Error with the server's words and `status`. */
export async function request(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let data;
  try { data = JSON.parse(text); } catch (_) { data = text; }
  if (!r.ok) {
    const err = new Error((data && inLanguage(data.error, data.error_ru)) || `${r.status}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

const game = (id) => `/api/games/${id}`;

/** Presets, options, levels, colours (letter, partner) and seatings. */
export const meta = () => request('GET', '/api/meta');
/** The board's geometry: squares, castles, each colour's track. */
export const board = () => request('GET', '/api/board');
/** The rules text as Markdown and HTML. */
export const rulesText = () => request('GET', '/api/rules');
/** One page of the stored games, most recently changed first: {games, page, per, total}; `filter` 'playing' or 'finished' if given. */
export const listGames = ({ page = 1, per = 50, filter } = {}) =>
  request('GET', `/api/games?page=${page}&per=${per}${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`);
/** Starts a game: {preset, players, options, seats, delay_ms, seed?}. */
export const createGame = (body) => request('POST', '/api/games', body);
/** Stores a game from its record text. */
export const importRecord = (record) => request('POST', '/api/import', { record });
/** Deletes a game. */
export const deleteGame = (id) => request('DELETE', game(id));
/** A game's state. */
export const getGame = (id) => request('GET', game(id));
/** Acts for `seat`: action is 'throw', 'step' (with {step}), 'undo' or 'end'. */
export const act = (id, action, seat, extra) => request('POST', `${game(id)}/${action}`, Object.assign({ seat }, extra || {}));
/** The best plays now, with their win chances. */
export const hint = (id) => request('GET', `${game(id)}/hint`);
/** Every position of a game, frame by frame. */
export const replay = (id) => request('GET', `${game(id)}/replay`);
/** The review of a game: each side's figures and the plays that lost. */
export const review = (id) => request('GET', `${game(id)}/review`);
/** Where a game's record text is downloaded from. */
export const recordUrl = (id) => `${game(id)}/record`;
/** The WebSocket URL that pushes a game's states. */
export const socketUrl = (id) => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/games/${encodeURIComponent(id)}/ws`;

/**
 * Asks why the rules refuse moving `colour`'s piece at progress `from` to `to`
 * ({allowed, why, why_ru}): the engine looks at every unit there and every use
 * of the dice left, and answers the most telling reason.
 */
export function whyNot(id, seat, colour, from, to) {
  return request('POST', `${game(id)}/check`, { seat, colour, from, to });
}
