// What the server knows about the rules, fetched once: the presets and options,
// each colour's letter and partner, which colours play for each seating, and the
// board's geometry. The page derives none of these itself.
import * as api from './api.js';

let META = null;
let BOARD = null;

/** Fetches the facts the first time it is called. */
export async function loadFacts() {
  if (!META) META = await api.meta();
  if (!BOARD) BOARD = await api.board();
}

/** GET /api/meta as it was answered. */
export const meta = () => META;
/** GET /api/board: squares, castles and each colour's track. */
export const geometry = () => BOARD;
/** A preset by name (undefined if there is none). */
export const preset = (name) => META.presets.find((p) => p.name === name);

const colour = (c) => META.colours.find((x) => x.name === c);
/** A colour's letter in the notation ("yellow" -> "Y"). */
export const letter = (c) => (colour(c) || {}).letter || '?';

/**
 * Who sits where for a seating and number of players: a list of groups of
 * colours, one per seat (a person with fewer seats than colours plays a team's
 * colours), or an empty list when the rules have no such seating.
 */
export function seatGroups(seating, players) {
  const s = (META.seating[seating] || {})[String(players)];
  if (!s) return [];
  if (!s.teams || s.colours.length <= players) return s.colours.map((c) => [c]);
  const groups = [];
  for (const c of s.colours) {
    if (groups.some((g) => g.includes(c))) continue;
    groups.push([c, colour(c).partner]);
  }
  return groups;
}

/** A game's teams, from its partners: [["yellow", "black"], ["red", "green"]] ([] without teams). */
export function teamsOf(g) {
  const teams = [];
  for (const c of g.colours) {
    if (!g.partners[c] || teams.some((tm) => tm.includes(c))) continue;
    teams.push([c, g.partners[c]]);
  }
  return teams;
}

/** The value of option `name` in game `g` (its options, else its preset's). */
export function gameOption(g, name) {
  const p = preset(g.preset);
  return (g.options && g.options[name]) || (p && p.values[name]);
}
