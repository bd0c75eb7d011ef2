// The side panel of the game page, drawn from the game's state: whose turn,
// the dice, what is left of the throw, the teams, the buttons, the legal steps
// as a list, the hint, the moves so far and the links; and the game-over box.
import { recordUrl } from '../api.js';
import { diceRow } from '../dice.js';
import { el } from '../dom.js';
import { teamsOf } from '../facts.js';
import { verifyDice } from '../fairness.js';
import { cname, sideName, t, count } from '../i18n.js';
import { stepLabel } from './game-steps.js';

const chip = (c) => el('span', { class: `chip ${c}` }, cname(c));
const outcomeText = (g) => (g.winner ? `${t('winner')}: ${sideName(g.winner)}` : t('dead'));

/**
 * The panel for game `g`. ctx: {id, personTurn, rolling, hintBox, act(action, extra), showHint(),
 * connected (seats with a socket), held (this page's tokens), changeSeat(seat, to)}.
 */
export function sidePanel(g, ctx) {
  const legal = (g.turn && g.turn.legal) || [];
  return el('aside', { class: 'side' },
    status(g, ctx), diceRow(g.turn, g.throw_mode === 'dice', ctx.rolling),
    g.turn ? turnInfo(g, g.turn) : null,
    teams(g),
    players(g, ctx),
    buttons(g.turn, legal, ctx),
    ctx.personTurn && g.turn && legal.length ? stepList(legal, ctx.act) : null,
    ctx.hintBox,
    diceInfo(g),
    ctx.chatBox || null,
    el('h3', {}, t('moves')),
    el('ol', { class: 'movelist' }, g.moves.map((m) => el('li', {}, el('span', { class: `dot ${m.colour}` }), ` ${m.throw.join(',')} `, el('code', {}, m.notation),
      (g.timed_out || []).includes(m.n) ? el('small', { class: 'timed-out', title: t('timed_out') }, ' ⏱') : null))),
    el('p', { class: 'links' }, el('a', { href: `#/replay/${ctx.id}` }, t('replay')), ' · ',
      el('a', { href: recordUrl(ctx.id), download: `chaupar-${ctx.id}.txt` }, t('export')), ' · ',
      el('a', { href: '#/' }, t('lobby'))),
    el('p', { class: 'muted small' }, t('legend')),
    el('p', { class: 'muted small' }, t('keys')));
}

function status(g, ctx) {
  if (g.outcome !== 'playing') return el('div', { class: 'status over', id: 'winner' }, outcomeText(g));
  const name = (g.names && g.names[g.to_move]) || '';
  return el('div', { class: 'status' }, `${t('turn_of')}: `, chip(g.to_move), ' ',
    g.to_move_kind === 'computer' ? el('span', { class: 'muted' }, t('computer_thinking'))
      : ctx.personTurn ? el('strong', {}, t('your_turn')) : el('span', { class: 'muted' }, name));
}

// Whose pieces move (the partner's, with passed points), and what is left of the
// throw: dice where each die is played alone (throw=dice), else points.
function turnInfo(g, turn) {
  const left = g.throw_mode === 'dice'
    ? el('p', { class: 'muted', id: 'left', 'data-left': 'dice' }, `${t('dice_left')}: ${turn.dice_left.join(', ') || '—'}`)
    : el('p', { class: 'muted', id: 'left', 'data-left': 'points' }, `${t('points_left')}: ${turn.points_left}`);
  if (turn.notation && turn.notation !== '-') left.append(` · ${turn.notation}`);
  const actor = turn.actor !== turn.colour ? el('p', { class: 'note' }, `${t('actor_partner')}: `, chip(turn.actor)) : null;
  return [actor, left];
}

// "Yellow + Black against Red + Green", in team games.
function teams(g) {
  const sides = teamsOf(g);
  if (!g.teams || !sides.length) return null;
  const out = el('p', { class: 'teams' });
  sides.forEach((side, i) => {
    if (i) out.append(` ${t('vs')} `);
    side.forEach((c, k) => out.append(...(k ? ['+', chip(c)] : [chip(c)])));
  });
  return out;
}

// Who sits where: names (as text, never markup), a dot for the connected, and
// for the owner each free seat's invite link and a way to give a seat to the
// computer.
function players(g, ctx) {
  const held = ctx.held || { seats: {}, invites: {} };
  const connected = new Set(ctx.connected || []);
  const owner = Boolean(held.owner) && g.outcome === 'playing';
  const rows = g.colours.map((c) => {
    const seat = g.seats[c] || {};
    const free = (g.free || []).includes(c);
    const who = seat.kind === 'computer' ? `${t('computer')} ${seat.level}`
      : free ? t('free_seat') : (g.names && g.names[c]) || t('person');
    const li = el('li', { class: 'player', 'data-seat': c },
      el('span', { class: `presence${connected.has(c) ? ' on' : ''}`, title: connected.has(c) ? t('connected') : '' }, connected.has(c) ? '●' : '○'), ' ',
      chip(c), ' ', el('span', { class: 'name' }, who), held.seats[c] ? el('strong', {}, ' ✓') : null);
    const code = held.invites && held.invites[c];
    if (owner && free && code) {
      const link = `${location.origin}${location.pathname}#/join/${ctx.id}/${c}/${code}`;
      const input = el('input', { class: 'invite', readonly: true, value: link, 'aria-label': `${t('invite_link')} ${cname(c)}` });
      li.append(el('div', { class: 'invite-row' }, input, el('button', { type: 'button', class: 'copy', onclick: async (ev) => {
        input.select();
        try { await navigator.clipboard.writeText(link); ev.target.textContent = t('copied'); } catch (_) { document.execCommand && document.execCommand('copy'); }
      } }, t('copy'))));
    }
    if (owner && seat.kind === 'person') {
      li.append(' ', el('button', { type: 'button', class: 'link to-computer', onclick: () => ctx.changeSeat(c, { kind: 'computer', level: 2 }) }, t('to_computer')));
    }
    return li;
  });
  const watching = g.outcome === 'playing' && !Object.keys(held.seats).length ? el('p', { class: 'muted', id: 'spectator' }, t('spectator')) : null;
  return [el('h3', {}, t('seat_players')), el('ul', { class: 'players' }, rows), watching];
}

function buttons(turn, legal, ctx) {
  const box = el('div', { class: 'buttons' });
  if (!ctx.personTurn) return box;
  const button = (id, cls, action, words) => el('button', { type: 'button', class: cls, id, onclick: action }, words);
  if (!turn) box.append(button('throw', 'primary', () => ctx.act('throw'), t('throw')));
  else {
    if (turn.steps.length) box.append(button('undo', null, () => ctx.act('undo'), t('undo')));
    if (turn.can_end) box.append(button('end', 'primary', () => ctx.act('end'), legal.length || turn.steps.length ? t('end') : t('pass')));
    box.append(button('hint', null, ctx.showHint, t('hint')));
  }
  return box;
}

// The legal steps as buttons, for the keyboard and small screens.
function stepList(legal, act) {
  const list = el('div', { class: 'steplist' });
  const seen = new Set();
  for (const s of legal) {
    const k = JSON.stringify(s);
    if (seen.has(k)) continue; seen.add(k);
    list.append(el('button', { type: 'button', class: 'stepbtn', onclick: () => act('step', { step: s }) }, stepLabel(s)));
  }
  return [el('p', { class: 'muted small' }, t('pick_piece')), el('details', {}, el('summary', {}, `${t('moves')} (${seen.size})`), list)];
}

/** The box over the board when the game is over. */
export function gameOverBox(g, id) {
  return el('div', { class: 'overlay', id: 'game-over' },
    el('div', { class: 'over-box' }, el('h2', {}, t('over')),
      el('p', { class: 'big' }, outcomeText(g)),
      el('div', { class: 'buttons' },
        el('a', { class: 'button primary', href: '#/' }, t('new_game')),
        el('a', { class: 'button', href: `#/replay/${id}` }, t('replay')),
        el('button', { type: 'button', onclick: (ev) => ev.target.closest('.overlay').remove() }, '×'))));
}

// The check of a finished game's dice, run once per game (the panel is redrawn
// on every change): the revealed secret against the commitment and every throw.
const checks = new Map();

function checkDice(g) {
  const d = g.dice;
  const key = `${g.id}:${d.secret}`;
  if (!checks.has(key)) {
    const faces = String((g.options || {}).faces || '1256') === '1346' ? [1, 3, 4, 6] : [1, 2, 5, 6];
    const throws = d.throw_off.map((x) => x.throw).concat(g.moves.map((m) => m.throw)).slice(d.from || 0);
    checks.set(key, verifyDice({ commit: d.commit, secret: d.secret, seeds: d.seeds, faces, throws, from: d.from || 0 })
      .catch(() => ({ ok: false, reason: 'format' })));
  }
  return checks.get(key);
}

function verdict(r) {
  if (r.ok) return `${t('dice_verified')} (${count(r.count, 'n_throws')})`;
  if (r.reason === 'commitment') return t('dice_bad_secret');
  if (r.reason === 'throw') return `${t('dice_bad_throw')} ${r.n + 1}: ${(r.recorded || []).join(',')} ≠ ${r.expected.join(',')}`;
  return t('dice_bad_format');
}

/** The game's dice: the commitment (short, the whole in its title), the
 * players' seeds, and once the game is over the check of every throw. */
function diceInfo(g) {
  const d = g.dice;
  if (!d) return null;
  const box = el('div', { class: 'dice-info small', id: 'dice-info' }, el('h3', {}, t('dice_title')));
  if (d.practice) box.append(el('p', { class: 'muted', id: 'dice-practice' }, t('dice_practice')));
  if (d.archive) box.append(el('p', { class: 'muted', id: 'dice-archive' }, t('dice_archive')));
  if (d.commit) {
    box.append(el('p', {}, `${t('dice_commit')}: `,
      el('code', { id: 'dice-commit', title: `${d.commit}\n${t('dice_commit_about')}` }, `${d.commit.slice(0, 12)}…`)));
  }
  const seeds = Object.entries(d.seeds || {});
  if (seeds.length) {
    box.append(el('p', {}, `${t('dice_seeds')}: `, seeds.flatMap(([c, s], i) => [i ? ', ' : '', chip(c), ' ',
      el('code', { title: s.seed }, s.seed.length > 12 ? `${s.seed.slice(0, 12)}…` : s.seed),
      s.from ? ` (${t('dice_from_throw')} ${s.from + 1})` : ''])));
  }
  if (g.outcome !== 'playing' && d.commit && d.secret) {
    const out = el('p', { id: 'dice-verify', class: 'note' }, t('dice_checking'));
    checkDice(g).then((r) => {
      out.textContent = verdict(r);
      out.dataset.ok = r.ok ? 'yes' : 'no';
    });
    box.append(out);
  }
  return box;
}
