// The lobby: the form that starts a game (preset, players, seats, options),
// the stored games (kept live), and the import of a game record.
import * as api from '../api.js';
import { el, toast } from '../dom.js';
import { meta, preset, seatGroups } from '../facts.js';
import { cname, sideName, t, count } from '../i18n.js';
import { gone, route } from '../router.js';

const REFRESH_MS = 3000;
// Games a page of the list has (the server sends 200 at most).
const PER_PAGE = 50;

// The first `pages` pages of the list, as one: {games, total}.
async function firstPages(pages) {
  const all = [];
  let total = 0;
  for (let page = 1; page <= pages; page++) {
    const p = await api.listGames({ page, per: PER_PAGE });
    all.push(...p.games);
    total = p.total;
    if (page * PER_PAGE >= total) break;
  }
  return { games: all, total };
}

/** Shows the lobby in `main` (unless `signal` says another page was asked for meanwhile); answers the function that stops its refreshing. */
export async function lobbyPage(main, _arg, signal) {
  // The list shows one page, and one more each time "more" is clicked.
  let pages = 1;
  let games;
  let shown = '';
  const show = (list) => {
    shown = JSON.stringify(list);
    const next = gamesCard(list, async () => {
      pages += 1;
      try { show(await firstPages(pages)); } catch (e) { toast(e.message); }
    });
    if (games) games.replaceWith(next);
    games = next;
  };
  const first = await firstPages(pages);
  if (gone(signal)) return null;
  show(first);
  const openGames = await api.listOpen().catch(() => ({ games: [] }));
  if (gone(signal)) return null;
  let open = openCard(openGames);
  main.replaceChildren(el('div', { class: 'lobby' }, newGameForm(), open, games, importCard()));
  // The list stays live: games started, played on or ended elsewhere (another
  // tab, another machine, computers playing) show up without a reload.
  const timer = setInterval(async () => {
    try {
      const fresh = await firstPages(pages);
      if (JSON.stringify(fresh) === shown || !games.isConnected) return;
      const nextOpen = openCard(await api.listOpen());
      open.replaceWith(nextOpen);
      open = nextOpen;
      show(fresh);
    } catch (_) { /* the server may be restarting; try again next time */ }
  }, REFRESH_MS);
  return () => clearInterval(timer);
}

// The form that starts a game.
function newGameForm() {
  const M = meta();
  const form = el('form', { class: 'card newgame', id: 'new-game' });
  const presetSel = el('select', { id: 'preset', name: 'preset' }, M.presets.map((p) => el('option', { value: p.name }, p.name)));
  const playersSel = el('select', { id: 'players', name: 'players' });
  const optsBox = el('div', { class: 'options' });
  const seatsBox = el('div', { class: 'seats' });
  const delay = el('input', { id: 'delay', type: 'number', min: 0, max: 60000, step: 100, value: localStorage.getItem('chaupar.delay') || 900 });
  const seed = el('input', { id: 'seed', type: 'number', min: 0, placeholder: '' });
  const openBox = el('input', { id: 'open', type: 'checkbox' });
  const specChat = el('input', { id: 'spectator-chat', type: 'checkbox' });
  const tutorBox = el('input', { id: 'tutor', type: 'checkbox' });
  const turnSecs = el('input', { id: 'turn-seconds', type: 'number', min: 10, max: 86400, placeholder: '—' });
  const myName = el('input', { id: 'my-name', maxlength: 24, value: localStorage.getItem('chaupar.name') || '' });
  const optSel = {};
  const seatSel = {};
  const chosen = () => preset(presetSel.value);

  function fillPlayers() {
    playersSel.replaceChildren(...chosen().players.map((n) => el('option', { value: n, selected: n === 4 }, n)));
  }
  function fillOptions() {
    const values = chosen().values;
    optsBox.replaceChildren(...M.options.map((o) => {
      const s = el('select', { id: `opt-${o.name}`, 'aria-label': o.name },
        o.values.map((v) => el('option', { value: v, selected: v === values[o.name] }, v + (v === values[o.name] ? ' *' : ''))));
      optSel[o.name] = s;
      s.addEventListener('change', fillSeats);
      return el('label', { class: 'opt', title: o.about }, el('span', {}, o.name), s, el('small', {}, o.about));
    }));
  }
  function fillSeats() {
    const seating = optSel.seating ? optSel.seating.value : 'teams';
    const groups = seatGroups(seating, Number(playersSel.value));
    for (const k of Object.keys(seatSel)) delete seatSel[k];
    if (!groups.length) { seatsBox.replaceChildren(el('p', { class: 'muted' }, t('no_seats'))); return; }
    seatsBox.replaceChildren(...groups.map((grp, i) => {
      const s = seatSelect(grp, i === 0);
      for (const c of grp) seatSel[c] = s;
      return el('label', { class: 'seat' }, el('span', {}, grp.map((c) => el('span', { class: `chip ${c}` }, cname(c)))), s);
    }));
  }
  presetSel.addEventListener('change', () => { fillPlayers(); fillOptions(); fillSeats(); });
  playersSel.addEventListener('change', fillSeats);
  fillPlayers(); fillOptions(); fillSeats();

  // A random client seed (docs/fairness.md) for each seat held at this screen.
  function clientSeeds(seats) {
    const out = {};
    for (const [c, s] of Object.entries(seats)) {
      if (s.kind !== 'person') continue;
      const b = crypto.getRandomValues(new Uint8Array(16));
      out[c] = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    }
    return out;
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const p = chosen();
    const options = {};
    for (const o of M.options) if (optSel[o.name].value !== p.values[o.name]) options[o.name] = optSel[o.name].value;
    const seats = {};
    const free = [];
    const names = {};
    for (const [c, s] of Object.entries(seatSel)) {
      seats[c] = s.value === 'person' || s.value === 'free' ? { kind: 'person' } : { kind: 'computer', level: Number(s.value) };
      if (s.value === 'free') free.push(c);
      else if (s.value === 'person' && myName.value.trim()) names[c] = myName.value.trim();
    }
    const body = { preset: p.name, players: Number(playersSel.value), options, seats, delay_ms: Number(delay.value) || 0, free, open: openBox.checked, names, spectator_chat: specChat.checked };
    if (turnSecs.value !== '') body.turn_seconds = Number(turnSecs.value);
    if (tutorBox.checked) body.tutor = true;
    localStorage.setItem('chaupar.name', myName.value.trim());
    if (seed.value !== '') body.seed = Number(seed.value);
    // Seeds for the seats the maker holds; whoever takes a free seat gives their own.
    else body.client_seeds = clientSeeds(Object.fromEntries(Object.entries(seats).filter(([c]) => !free.includes(c))));
    localStorage.setItem('chaupar.delay', delay.value);
    try {
      const g = await api.createGame(body);
      location.hash = `#/game/${g.id}`;
    } catch (e) { toast(e.message, true); }
  });
  form.append(
    el('h2', {}, t('new_game')),
    el('div', { class: 'row' },
      el('label', {}, el('span', {}, t('preset')), presetSel),
      el('label', {}, el('span', {}, t('players')), playersSel),
      el('label', {}, el('span', {}, t('delay')), delay),
      el('label', {}, el('span', {}, t('seed')), seed),
      el('label', {}, el('span', {}, t('your_name_opt')), myName),
      el('label', {}, el('span', {}, t('turn_seconds')), turnSecs)),
    el('label', { class: 'check' }, openBox, ' ', t('open_game')),
    el('label', { class: 'check' }, specChat, ' ', t('spectator_chat')),
    el('label', { class: 'check' }, tutorBox, ' ', t('tutor_option')),
    el('h3', {}, t('seats')), seatsBox,
    el('details', {}, el('summary', {}, t('options')), optsBox),
    el('button', { type: 'submit', class: 'primary', id: 'start' }, t('start')));
  return form;
}

// Who plays a seat's colours: a person (the first seat) or a computer level (level 2 elsewhere).
function seatSelect(grp, first) {
  return el('select', { id: `seat-${grp[0]}`, 'aria-label': grp.map(cname).join(' + ') },
    el('option', { value: 'person', selected: first }, t('person')),
    el('option', { value: 'free' }, t('for_others')),
    meta().levels.map((l) => el('option', { value: String(l), selected: !first && l === 2 }, `${t('computer')} ${l}`)));
}

// The card listing the stored games (`more` loads one more page).
function gamesCard(list, more) {
  const rows = list.games.map((g) => {
    const s = g.summary || {};
    const status = g.status === 'over'
      ? (s.winner ? `${t('winner')}: ${sideName(s.winner)}` : t('over'))
      : `${t('whose')}: ${cname(s.to_move || '')}`;
    const humans = Object.values(s.seats || {}).some((x) => x.kind === 'person');
    return el('tr', {},
      el('td', {}, el('code', {}, g.id)),
      el('td', {}, s.rules, el('br'), el('small', {}, `${s.players} · ${count(s.turns, 'n_moves')}`)),
      el('td', {}, status),
      el('td', { class: 'actions' },
        g.status === 'over' ? null : el('a', { class: 'button', href: `#/game/${g.id}` }, humans ? t('resume') : t('watch')),
        el('a', { class: 'button', href: `#/replay/${g.id}` }, t('replay')),
        el('a', { class: 'button', href: api.recordUrl(g.id), download: `chaupar-${g.id}.txt` }, t('record')),
        api.held(g.id).owner ? el('button', { type: 'button', class: 'link', onclick: async () => {
          if (!confirm(t('confirm_delete'))) return;
          try { await api.deleteGame(g.id); } catch (e) { toast(e.message, true); }
          route();
        } }, t('delete')) : null));
  });
  const counted = list.total > rows.length
    ? el('p', { class: 'muted more' },
      t('games_shown').replace('{shown}', rows.length).replace('{total}', list.total), ' ',
      el('button', { type: 'button', id: 'more-games', onclick: more }, t('more_games')))
    : null;
  return el('section', { class: 'card' }, el('h2', {}, t('games')),
    rows.length ? el('div', { class: 'table' }, el('table', { class: 'games' }, el('tbody', {}, rows))) : el('p', { class: 'muted' }, t('none')),
    counted);
}

// The open games: each free seat with a Join button (names are text, never markup).
function openCard(list) {
  const rows = list.games.map((g) => {
    const s = g.summary || {};
    return el('tr', {},
      el('td', {}, el('code', {}, g.id)),
      el('td', {}, s.rules, el('br'), el('small', {}, Object.values(s.names || {}).join(', '))),
      el('td', { class: 'actions' }, (s.free || []).map((c) =>
        el('a', { class: 'button join', href: `#/join/${g.id}/${c}` }, `${t('join')}: ${cname(c)}`))));
  });
  return el('section', { class: 'card', id: 'open-games' }, el('h2', {}, t('open_games')),
    rows.length ? el('table', { class: 'games' }, el('tbody', {}, rows)) : el('p', { class: 'muted' }, t('none')));
}

// The card that imports a game record (pasted or from a file) and opens its replay.
function importCard() {
  const imp = el('textarea', { id: 'import-text', rows: 5, placeholder: '[Rules "chaupar"]\n...' });
  const file = el('input', { type: 'file', accept: '.txt,text/plain', onchange: async (ev) => {
    const f = ev.target.files[0]; if (f) imp.value = await f.text();
  } });
  return el('section', { class: 'card' }, el('h2', {}, t('import')), file, imp,
    el('button', { type: 'button', onclick: async () => {
      try {
        const g = await api.importRecord(imp.value);
        location.hash = `#/replay/${g.id}`;
      } catch (e) { toast(e.message, true); }
    } }, t('import_btn')));
}
