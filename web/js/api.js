// The server's JSON API (docs/api.md): one function a request, so that every
// URL and body the page sends is written here once.
import { inLanguage } from './i18n.js';

// The secrets this page was given for each game (localStorage
// `chaupar.tokens.<id>`: {owner, seats: {colour: token}, invites: {colour: code}}),
// so that a reload or a reconnect carries on.
const tokenKey = (id) => `chaupar.tokens.${id}`;

/** What this page holds for game `id`: {owner?, seats, invites}. */
export function held(id) {
  let h = null;
  try { h = JSON.parse(localStorage.getItem(tokenKey(id)) || 'null'); } catch (_) { h = null; }
  return { owner: (h && h.owner) || null, seats: (h && h.seats) || {}, invites: (h && h.invites) || {} };
}

/** Keeps the secrets of an answer (creation, import, join, seat change). */
function keep(answer) {
  if (!answer || !answer.id || !(answer.owner_token || answer.seat_tokens || answer.invites)) return answer;
  const h = held(answer.id);
  if (answer.owner_token) h.owner = answer.owner_token;
  Object.assign(h.seats, answer.seat_tokens || {});
  Object.assign(h.invites, answer.invites || {});
  for (const c of Object.keys(answer.seat_tokens || {})) delete h.invites[c];
  try { localStorage.setItem(tokenKey(answer.id), JSON.stringify(h)); } catch (_) { /* private mode: this tab only */ }
  return answer;
}

/** Forgets a game's secrets (it was deleted). */
export function forget(id) { try { localStorage.removeItem(tokenKey(id)); } catch (_) { /* nothing kept */ } }

/** Sends a request (with `Authorization: Bearer token` when given); answers the parsed JSON, or throws an Error with the server's words and `status`. */
export async function request(method, path, body, token) {
  const headers = body ? { 'Content-Type': 'application/json' } : {};
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let data;
  try { data = JSON.parse(text); } catch (_) { data = text; }
  if (!r.ok) {
    const err = new Error((data && inLanguage(data.error, data.error_ru)) || `${r.status}`);
    err.status = r.status;
    if (data && data.rule) err.rule = data.rule;
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
/** One page of the stored games, most recently changed first: {games, page, per, total}; `filter` 'playing', 'finished' or 'open' if given. */
export const listGames = ({ page = 1, per = 50, filter } = {}) =>
  request('GET', `/api/games?page=${page}&per=${per}${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`);
/** The open games: a seat free that anyone may take. */
export const listOpen = () => listGames({ filter: 'open' });
/** Starts a game: {preset, players, options, seats, delay_ms, seed?, free?, open?, names?}; keeps its tokens. */
export const createGame = (body) => request('POST', '/api/games', body).then(keep);
/** Stores a game from its record text; keeps its tokens. */
export const importRecord = (record) => request('POST', '/api/import', { record }).then(keep);
/** Deletes a game (the owner's token). */
export const deleteGame = (id) => request('DELETE', game(id), undefined, held(id).owner).then((r) => { forget(id); return r; });
/** Takes a free seat: {seat, name, invite?, client_seed?}; keeps its token. */
export const joinGame = (id, body) => request('POST', `${game(id)}/join`, body).then(keep);
/**
 * The owner changes a seat: to {kind: 'computer', level} or {kind: 'person'}
 * (freed, with a new invite). The server forgets the seat's token, so the page
 * forgets it too: sent later (the chat, the socket's auth) it would be a 403.
 */
export const changeSeat = (id, seat, to) => request('POST', `${game(id)}/seats`, { seat, to }, held(id).owner)
  .then((answer) => { forgetSeat(id, seat); return keep(answer); });

// Drops the token of `seat` from what this page holds for game `id`.
function forgetSeat(id, seat) {
  const h = held(id);
  if (!(seat in h.seats)) return;
  delete h.seats[seat];
  try { localStorage.setItem(tokenKey(id), JSON.stringify(h)); } catch (_) { /* private mode: this tab only */ }
}
/** A game's state. */
export const getGame = (id) => request('GET', game(id));
/** A fresh random action id (the key that makes a retried action safe). */
export function actionId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * Acts for `seat`: action is 'throw', 'step' (with {step}), 'undo' or 'end'. The
 * action carries a random `action_id`; when the connection fails or the server
 * is restarting (502, 503, 504) it is sent again with the same id, so that it
 * is applied once (docs/api.md, "Retries").
 */
export async function act(id, action, seat, extra) {
  const body = Object.assign({ seat, action_id: actionId() }, extra || {});
  const token = held(id).seats[seat];
  for (let attempt = 0; ; attempt++) {
    try {
      return await request('POST', `${game(id)}/${action}`, body, token);
    } catch (err) {
      const retry = err.status === undefined || [502, 503, 504].includes(err.status);
      if (!retry || attempt >= 3) throw err;
      await new Promise((done) => setTimeout(done, 300 * (attempt + 1)));
    }
  }
}
/** The best plays now for `seat` (the seat to move), with their win chances. */
export const hint = (id, seat) => request('GET', `${game(id)}/hint`, undefined, held(id).seats[seat]);
/** Any token this page holds for game `id` (a seat's, else the owner's). */
const anyToken = (id) => Object.values(held(id).seats)[0] || held(id).owner || undefined;
/** The game's chat: {lines: [{at, seat, name, text}]}. */
export const chatLines = (id) => request('GET', `${game(id)}/chat`, undefined, anyToken(id));
/** Says `text` in the chat: as `seat` (its token), or as a spectator named `name`. */
export const sayChat = (id, seat, name, text) => request('POST', `${game(id)}/chat`,
  seat ? { seat, text } : { name, text }, seat ? held(id).seats[seat] : undefined);
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
  return request('POST', `${game(id)}/check`, { seat, colour, from, to }, held(id).seats[seat]);
}

/** Why no step moves the piece of `colour` at progress `piece` (seat `seat` asks): {allowed, why?, why_ru?, rule?}. */
export function whyStuck(id, seat, colour, piece) {
  return request('POST', `${game(id)}/check`, { seat, colour, piece }, held(id).seats[seat]);
}
/** Tutor mode: judges the turn's steps so far as one play against the best ({loss, warn, threshold, plays, best, yours}); changes nothing. */
export const tutor = (id, seat) => request('POST', `${game(id)}/tutor`, { seat }, held(id).seats[seat]);
/** The review drawn as a win-chance graph: the SVG's text (`lang` 'en' or 'ru'). */
export async function reviewSvg(id, lang) {
  const r = await fetch(`${game(id)}/review.svg?lang=${lang === 'ru' ? 'ru' : 'en'}`);
  const text = await r.text();
  if (!r.ok) {
    let msg = `${r.status}`;
    try { msg = JSON.parse(text).error || msg; } catch (_) { /* not JSON */ }
    throw new Error(msg);
  }
  return text;
}

/** The lessons: {lessons: [{id, preset, title, text, task, hint, position, throw}]}. */
export const lessons = () => request('GET', '/api/lessons');
/** A lesson's turn after `steps` ({turn, position, done}); with `end`, also {solved, why, why_ru}. */
export const tryLesson = (id, steps, end) => request('POST', `/api/lessons/${encodeURIComponent(id)}/try`, { steps, end: Boolean(end) });
/** A play that solves lesson `id`: {notation, steps}. */
export const lessonAnswer = (id) => request('GET', `/api/lessons/${encodeURIComponent(id)}/answer`);
/** Why moving `colour`'s piece at `from` to `to` is refused after `steps` in lesson `id`: {allowed, why, why_ru}. */
export const checkLesson = (id, steps, colour, from, to) => request('POST', `/api/lessons/${encodeURIComponent(id)}/check`, { steps, colour, from, to });
/** Why no step moves `colour`'s piece at progress `piece` after `steps` in lesson `id`: {allowed, why, why_ru, rule?}. */
export const checkLessonPiece = (id, steps, colour, piece) => request('POST', `/api/lessons/${encodeURIComponent(id)}/check`, { steps, colour, piece });

/** A preset's puzzles, posed without their answers: {rules, puzzles: [{n, colour, throw, position, ...}]}. */
export const puzzles = (rules) => request('GET', `/api/puzzles?rules=${encodeURIComponent(rules)}`);
/** One puzzle with its turn's legal steps: {puzzle, position, turn}. */
export const puzzle = (rules, n) => request('GET', `/api/puzzles/${encodeURIComponent(rules)}/${n}`);
/** The puzzle's turn after `steps`: {puzzle, position, turn}. */
export const tryPuzzle = (rules, n, steps) => request('POST', `/api/puzzles/${encodeURIComponent(rules)}/${n}/try`, { steps });
/** Answers a puzzle with the play's steps: {correct, best, best_steps, margin, ranking, yours}. */
export const answerPuzzle = (rules, n, steps) => request('POST', `/api/puzzles/${encodeURIComponent(rules)}/${n}/answer`, { steps });
