// Chaupar web client. The server decides everything: this page only shows the
// state it is given and sends what the person clicks. See docs/api.md.
'use strict';

const COLOURS = ['yellow', 'red', 'black', 'green'];
const FILL = { yellow: '#f3c623', red: '#c8372d', black: '#262626', green: '#2e8b57' };
const INK = { yellow: '#3a2a00', red: '#fff', black: '#fff', green: '#fff' };
const LETTER = { yellow: 'Y', red: 'R', black: 'B', green: 'G' };

const TEXT = {
  en: {
    title: 'Chaupar', nav_lobby: 'Games', nav_rules: 'Rules',
    new_game: 'New game', preset: 'Rules', players: 'Players', options: 'Options that differ from the preset',
    seats: 'Seats', person: 'Person at this screen', computer: 'Computer, level', delay: 'Computer pause (ms)',
    start: 'Start the game', games: 'Stored games', none: 'No games yet.', resume: 'Play', watch: 'Watch',
    replay: 'Replay', record: 'Record', import: 'Import a game record', import_btn: 'Import',
    turn_of: 'Turn', throw: 'Throw the dice', undo: 'Undo step', end: 'End turn', pass: 'Nothing can move: end turn',
    hint: 'Hint', moves: 'Moves', captured: 'has captured', not_captured: 'has not captured yet',
    winner: 'Winner', dead: 'No one can move any more: the game is dead', over: 'Game over',
    computer_thinking: 'The computer is playing…', your_turn: 'Your turn', pick_piece: 'Click a piece to move, then its destination.',
    actor_partner: 'Passed points: now moving the partner\u2019s pieces', points_left: 'points left', dice_left: 'dice left',
    team: 'Team', vs: 'against', home: 'home', start_area: 'in the centre', block: 'block', turns_left: 'turns left',
    choose: 'Choose how to move', pieces: 'pieces', by: 'by', pair: 'equal pair', part: 'part of the total',
    declare_super: 'join as a super-piece', declare_block: 'stay apart as a block', cancel: 'Cancel',
    lobby: 'Back to games', prev: 'Previous', next: 'Next', first: 'Start', last: 'End', export: 'Export record',
    rules_page: 'Rules', preset_values: 'This preset\u2019s options', option: 'Option', value: 'Value', about: 'Meaning',
    win_chance: 'win', no_hint: 'No hint now.', loading: 'Loading…', error: 'Error', seed: 'Seed (optional)',
    legend: 'On the board: a number on a piece is a super-piece of that many; “2g” a group of two; B2 a block with 2 of its turns left; crossed gold squares are safe castles.',
    keys: 'Keys: T throw, U undo, E end turn, H hint, Esc cancel; arrows step through a replay.',
    step_of: 'step', delete: 'Delete', confirm_delete: 'Delete this game?', lang: 'RU',
    whose: 'to move', you: 'person', cpu: 'computer', thrown: 'Throw',
    deleted: 'This game was deleted.',
    review: 'Review the game', reviewing: 'Reviewing every play…', review_title: 'Review',
    review_side: 'Side', unforced: 'unforced plays', error_rate: 'mean loss', luck: 'luck',
    v_doubtful: 'doubtful', v_bad: 'bad', v_very_bad: 'very bad', best_was: 'best', no_mistakes: 'No play lost 2% or more.',
    review_about: 'Loss = the best play’s win chance minus the played one’s; doubtful from 0.02, bad from 0.05, very bad from 0.10. Luck = the throw’s best value minus the average over all 64 throws.',
  },
  ru: {
    title: 'Чаупар', nav_lobby: 'Партии', nav_rules: 'Правила',
    new_game: 'Новая партия', preset: 'Правила', players: 'Игроки', options: 'Опции, отличные от набора правил',
    seats: 'Места', person: 'Человек за этим экраном', computer: 'Компьютер, уровень', delay: 'Пауза компьютера (мс)',
    start: 'Начать партию', games: 'Сохранённые партии', none: 'Партий пока нет.', resume: 'Играть', watch: 'Смотреть',
    replay: 'Повтор', record: 'Запись', import: 'Загрузить запись партии', import_btn: 'Загрузить',
    turn_of: 'Ход', throw: 'Бросить кости', undo: 'Отменить шаг', end: 'Закончить ход', pass: 'Ходить нечем: закончить ход',
    hint: 'Подсказка', moves: 'Ходы', captured: 'уже брал', not_captured: 'ещё не брал',
    winner: 'Победа', dead: 'Больше никто не может ходить: партия мертва', over: 'Партия окончена',
    computer_thinking: 'Ходит компьютер…', your_turn: 'Ваш ход', pick_piece: 'Нажмите на фишку, затем на клетку, куда её поставить.',
    actor_partner: 'Переданные очки: ходят фишки партнёра', points_left: 'очков осталось', dice_left: 'костей осталось',
    team: 'Команда', vs: 'против', home: 'дома', start_area: 'в центре', block: 'блок', turns_left: 'ходов осталось',
    choose: 'Выберите, как ходить', pieces: 'фишек', by: 'на', pair: 'пара', part: 'часть суммы',
    declare_super: 'объединить в суперфишку', declare_block: 'оставить блоком', cancel: 'Отмена',
    lobby: 'К списку партий', prev: 'Назад', next: 'Вперёд', first: 'Начало', last: 'Конец', export: 'Скачать запись',
    rules_page: 'Правила', preset_values: 'Опции этого набора', option: 'Опция', value: 'Значение', about: 'Смысл',
    win_chance: 'победа', no_hint: 'Подсказки нет.', loading: 'Загрузка…', error: 'Ошибка', seed: 'Зерно (необязательно)',
    legend: 'На доске: число на фишке — суперфишка из стольких фишек; «2g» — группа из двух; B2 — блок, которому осталось 2 хода; золотые клетки с крестом — безопасные замки.',
    keys: 'Клавиши: T бросок, U отмена, E конец хода, H подсказка, Esc отмена; стрелки листают повтор.',
    step_of: 'шаг', delete: 'Удалить', confirm_delete: 'Удалить эту партию?', lang: 'EN',
    whose: 'ходит', you: 'человек', cpu: 'компьютер', thrown: 'Бросок',
    deleted: 'Эта партия удалена.',
    review: 'Разбор партии', reviewing: 'Оцениваю каждый ход…', review_title: 'Разбор',
    review_side: 'Сторона', unforced: 'ходов с выбором', error_rate: 'средняя потеря', luck: 'удача',
    v_doubtful: 'сомнительный', v_bad: 'плохой', v_very_bad: 'очень плохой', best_was: 'лучше', no_mistakes: 'Ни один ход не потерял 2% и больше.',
    review_about: 'Потеря — шанс победы после лучшего хода минус после сделанного; сомнительный от 0,02, плохой от 0,05, очень плохой от 0,10. Удача — лучшая оценка при выпавшем броске минус средняя по всем 64 броскам.',
  },
};
const COLOUR_NAME = {
  en: { yellow: 'Yellow', red: 'Red', black: 'Black', green: 'Green' },
  ru: { yellow: 'Жёлтые', red: 'Красные', black: 'Чёрные', green: 'Зелёные' },
};

let lang = localStorage.getItem('chaupar.lang') || ((navigator.language || '').startsWith('ru') ? 'ru' : 'en');
const t = (k) => (TEXT[lang] && TEXT[lang][k]) || TEXT.en[k] || k;
const cname = (c) => COLOUR_NAME[lang][c] || c;
const winnerName = (w) => w.split('+').map(cname).join(' + ');

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k.nodeType ? k : String(k));
  return e;
}
const SVGNS = 'http://www.w3.org/2000/svg';
function sv(tag, attrs, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k.nodeType ? k : document.createTextNode(String(k)));
  return e;
}

async function api(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let data;
  try { data = JSON.parse(text); } catch (_) { data = text; }
  if (!r.ok) {
    const err = new Error((data && ((lang === 'ru' && data.error_ru) || data.error)) || `${r.status}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

let toastTimer = null;
function toast(msg, bad) {
  const box = document.getElementById('toast');
  box.textContent = msg;
  box.className = 'show' + (bad ? ' bad' : '');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ''; }, 4000);
}

let META = null;
let BOARD = null;
async function facts() {
  if (!META) META = await api('GET', '/api/meta');
  if (!BOARD) BOARD = await api('GET', '/api/board');
}

// ---------- routing ----------

let stopPolling = null;
async function route() {
  if (stopPolling) { stopPolling(); stopPolling = null; }
  document.querySelectorAll('[data-t]').forEach((n) => { n.textContent = t(n.dataset.t); });
  document.getElementById('lang').textContent = t('lang');
  document.documentElement.lang = lang;
  const main = document.getElementById('main');
  main.replaceChildren(el('p', { class: 'muted' }, t('loading')));
  const h = location.hash.replace(/^#\/?/, '').split('/');
  try {
    await facts();
    if (h[0] === 'game' && h[1]) await gamePage(main, h[1]);
    else if (h[0] === 'replay' && h[1]) await replayPage(main, h[1]);
    else if (h[0] === 'rules') await rulesPage(main, h[1] || 'chaupar');
    else await lobbyPage(main);
  } catch (e) {
    main.replaceChildren(el('p', { class: 'error' }, `${t('error')}: ${e.message}`), el('a', { href: '#/' }, t('lobby')));
  }
}
window.addEventListener('hashchange', route);
document.getElementById('lang').addEventListener('click', () => {
  lang = lang === 'en' ? 'ru' : 'en';
  localStorage.setItem('chaupar.lang', lang);
  route();
});

// ---------- lobby ----------

function playingColours(preset, players, seating) {
  if (players === 4 || (players === 2 && seating === 'teams')) return COLOURS.slice();
  if (players === 3) return ['yellow', 'red', 'black'];
  return ['yellow', 'black'];
}

async function lobbyPage(main) {
  const list = await api('GET', '/api/games');
  const form = el('form', { class: 'card newgame', id: 'new-game' });
  const presetSel = el('select', { id: 'preset', name: 'preset' },
    META.presets.map((p) => el('option', { value: p.name }, p.name)));
  const playersSel = el('select', { id: 'players', name: 'players' });
  const optsBox = el('div', { class: 'options' });
  const seatsBox = el('div', { class: 'seats' });
  const delay = el('input', { id: 'delay', type: 'number', min: 0, max: 60000, step: 100, value: localStorage.getItem('chaupar.delay') || 900 });
  const seed = el('input', { id: 'seed', type: 'number', min: 0, placeholder: '' });
  const optSel = {};
  const seatSel = {};

  function preset() { return META.presets.find((p) => p.name === presetSel.value); }
  function fillPlayers() {
    const p = preset();
    playersSel.replaceChildren(...p.players.map((n) => el('option', { value: n, selected: n === 4 }, n)));
  }
  function fillOptions() {
    const p = preset();
    optsBox.replaceChildren(...META.options.map((o) => {
      const s = el('select', { id: `opt-${o.name}`, 'aria-label': o.name },
        o.values.map((v) => el('option', { value: v, selected: v === p.values[o.name] }, v + (v === p.values[o.name] ? ' *' : ''))));
      optSel[o.name] = s;
      s.addEventListener('change', fillSeats);
      return el('label', { class: 'opt', title: o.about }, el('span', {}, o.name), s, el('small', {}, o.about));
    }));
  }
  function fillSeats() {
    const seating = optSel.seating ? optSel.seating.value : 'teams';
    const players = Number(playersSel.value);
    const cols = playingColours(presetSel.value, players, seating);
    // With two players in teams each person plays a team's two colours.
    const groups = players === 2 && cols.length === 4 ? [['yellow', 'black'], ['red', 'green']] : cols.map((c) => [c]);
    for (const k of Object.keys(seatSel)) delete seatSel[k];
    seatsBox.replaceChildren(...groups.map((grp, i) => {
      const s = el('select', { id: `seat-${grp[0]}`, 'aria-label': grp.map(cname).join(' + ') },
        el('option', { value: 'person', selected: i === 0 }, t('person')),
        [1, 2, 3, 4, 5].map((l) => el('option', { value: String(l), selected: i !== 0 && l === 2 }, `${t('computer')} ${l}`)));
      for (const c of grp) seatSel[c] = s;
      return el('label', { class: 'seat' }, el('span', {}, grp.map((c) => el('span', { class: `chip ${c}` }, cname(c)))), s);
    }));
  }
  presetSel.addEventListener('change', () => { fillPlayers(); fillOptions(); fillSeats(); });
  playersSel.addEventListener('change', fillSeats);
  fillPlayers(); fillOptions(); fillSeats();

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const p = preset();
    const options = {};
    for (const o of META.options) if (optSel[o.name].value !== p.values[o.name]) options[o.name] = optSel[o.name].value;
    const seats = {};
    for (const [c, s] of Object.entries(seatSel)) seats[c] = s.value === 'person' ? { kind: 'person' } : { kind: 'computer', level: Number(s.value) };
    const body = { preset: p.name, players: Number(playersSel.value), options, seats, delay_ms: Number(delay.value) || 0 };
    if (seed.value !== '') body.seed = Number(seed.value);
    localStorage.setItem('chaupar.delay', delay.value);
    try {
      const g = await api('POST', '/api/games', body);
      location.hash = `#/game/${g.id}`;
    } catch (e) { toast(e.message, true); }
  });
  form.append(
    el('h2', {}, t('new_game')),
    el('div', { class: 'row' },
      el('label', {}, el('span', {}, t('preset')), presetSel),
      el('label', {}, el('span', {}, t('players')), playersSel),
      el('label', {}, el('span', {}, t('delay')), delay),
      el('label', {}, el('span', {}, t('seed')), seed)),
    el('h3', {}, t('seats')), seatsBox,
    el('details', {}, el('summary', {}, t('options')), optsBox),
    el('button', { type: 'submit', class: 'primary', id: 'start' }, t('start')));

  let games = gamesCard(list);
  let shown = JSON.stringify(list.games);
  const imp = el('textarea', { id: 'import-text', rows: 5, placeholder: '[Rules "chaupar"]\n...' });
  const file = el('input', { type: 'file', accept: '.txt,text/plain', onchange: async (ev) => {
    const f = ev.target.files[0]; if (f) imp.value = await f.text();
  } });
  const importBox = el('section', { class: 'card' }, el('h2', {}, t('import')), file, imp,
    el('button', { type: 'button', onclick: async () => {
      try {
        const g = await api('POST', '/api/import', { record: imp.value });
        location.hash = `#/replay/${g.id}`;
      } catch (e) { toast(e.message, true); }
    } }, t('import_btn')));
  main.replaceChildren(el('div', { class: 'lobby' }, form, games, importBox));
  // The list stays live: games started, played on or ended elsewhere (another
  // tab, another machine, computers playing) show up without a reload.
  const timer = setInterval(async () => {
    try {
      const fresh = await api('GET', '/api/games');
      const text = JSON.stringify(fresh.games);
      if (text === shown || !games.isConnected) return;
      shown = text;
      const next = gamesCard(fresh);
      games.replaceWith(next);
      games = next;
    } catch (_) { /* the server may be restarting; try again next time */ }
  }, 3000);
  stopPolling = () => clearInterval(timer);
}

// The card listing the stored games.
function gamesCard(list) {
  const rows = list.games.map((g) => {
    const s = g.summary || {};
    const status = g.status === 'over'
      ? (s.winner ? `${t('winner')}: ${winnerName(s.winner)}` : t('over'))
      : `${t('whose')}: ${cname(s.to_move || '')}`;
    const humans = Object.values(s.seats || {}).some((x) => x.kind === 'person');
    return el('tr', {},
      el('td', {}, el('code', {}, g.id)),
      el('td', {}, s.rules, el('br'), el('small', {}, `${s.players} · ${s.turns} ${t('moves').toLowerCase()}`)),
      el('td', {}, status),
      el('td', { class: 'actions' },
        g.status === 'over' ? null : el('a', { class: 'button', href: `#/game/${g.id}` }, humans ? t('resume') : t('watch')),
        el('a', { class: 'button', href: `#/replay/${g.id}` }, t('replay')),
        el('a', { class: 'button', href: `/api/games/${g.id}/record`, download: `chaupar-${g.id}.txt` }, t('record')),
        el('button', { type: 'button', class: 'link', onclick: async () => {
          if (!confirm(t('confirm_delete'))) return;
          await api('DELETE', `/api/games/${g.id}`); route();
        } }, t('delete'))));
  });
  return el('section', { class: 'card' }, el('h2', {}, t('games')),
    rows.length ? el('div', { class: 'table' }, el('table', { class: 'games' }, el('tbody', {}, rows))) : el('p', { class: 'muted' }, t('none')));
}

// ---------- board drawing ----------

const CELL = 40;
const N = 19;

function armOf(rc) {
  const [r, c] = rc;
  if (r > 10) return 'bottom';
  if (r < 8) return 'top';
  if (c < 8) return 'left';
  return 'right';
}
// The empty corner beside each colour's arm, where its seat panel goes.
const CORNER = { bottom: [11, 0], left: [0, 0], top: [0, 11], right: [11, 11] };
// The part of the Charkoni toward each arm (pieces waiting in the centre).
const CENTRE = { bottom: [10.05, 9], left: [9, 7.95], top: [7.95, 9], right: [9, 10.05] };

function seatCorner(colour) {
  return CORNER[armOf(BOARD.tracks[colour][1])];
}

// Draws a position. opts: {game, sel, targets, onPiece, onTarget, onCell}
function drawBoard(pos, opts) {
  const svg = sv('svg', { viewBox: `-4 -4 ${N * CELL + 8} ${N * CELL + 8}`, class: 'board', role: 'img', 'aria-label': 'board' });
  const defs = sv('defs', {},
    sv('pattern', { id: 'cloth', width: 8, height: 8, patternUnits: 'userSpaceOnUse' },
      sv('rect', { width: 8, height: 8, fill: '#8b2b1e' }),
      sv('path', { d: 'M0 8L8 0', stroke: '#7a2417', 'stroke-width': 1 })),
    sv('radialGradient', { id: 'shine', cx: '35%', cy: '30%', r: '70%' },
      sv('stop', { offset: '0%', 'stop-color': '#fff', 'stop-opacity': 0.55 }),
      sv('stop', { offset: '60%', 'stop-color': '#fff', 'stop-opacity': 0 })));
  svg.append(defs);
  svg.append(sv('rect', { x: -4, y: -4, width: N * CELL + 8, height: N * CELL + 8, rx: 18, fill: '#3b1d12' }));
  svg.append(sv('rect', { x: 0, y: 0, width: N * CELL, height: N * CELL, rx: 14, fill: '#f1e4c6' }));
  // The cross of cloth.
  svg.append(sv('rect', { x: 8 * CELL - 2, y: -1, width: 3 * CELL + 4, height: N * CELL + 2, fill: 'url(#cloth)', rx: 6 }));
  svg.append(sv('rect', { x: -1, y: 8 * CELL - 2, width: N * CELL + 2, height: 3 * CELL + 4, fill: 'url(#cloth)', rx: 6 }));
  const castles = new Set(BOARD.castles.map((rc) => rc.join(',')));
  const showCastles = !opts.game || opts.game.safe_castles;
  for (const [r, c] of BOARD.squares) {
    const castle = castles.has(`${r},${c}`);
    svg.append(sv('rect', { x: c * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 4,
      class: 'sq', fill: castle && showCastles ? '#e9b949' : '#f6e7c1', stroke: '#5c1c10', 'stroke-width': 1.2, 'data-rc': `${r},${c}` }));
    if (castle && showCastles) {
      const x = c * CELL + CELL / 2; const y = r * CELL + CELL / 2;
      svg.append(sv('path', { d: `M${x - 11} ${y - 11}L${x + 11} ${y + 11}M${x + 11} ${y - 11}L${x - 11} ${y + 11}`, stroke: '#7a2417', 'stroke-width': 2, opacity: 0.55 }));
    }
  }
  // The Charkoni.
  svg.append(sv('rect', { x: 8 * CELL + 2, y: 8 * CELL + 2, width: 3 * CELL - 4, height: 3 * CELL - 4, rx: 8, fill: '#2a6f4d', stroke: '#1b4a33', 'stroke-width': 2, class: 'charkoni' }));
  svg.append(sv('path', { d: `M${8 * CELL + 6} ${8 * CELL + 6}L${11 * CELL - 6} ${11 * CELL - 6}M${11 * CELL - 6} ${8 * CELL + 6}L${8 * CELL + 6} ${11 * CELL - 6}`, stroke: '#e9c46a', 'stroke-width': 1.5, opacity: 0.5 }));
  // Each colour's arm start and seat panel.
  const colours = pos ? Object.keys(pos.pieces) : [];
  for (const c of colours) {
    const first = BOARD.tracks[c][1];
    svg.append(sv('rect', { x: first[1] * CELL + 5, y: first[0] * CELL + 5, width: CELL - 10, height: CELL - 10, rx: 6, fill: 'none', stroke: FILL[c], 'stroke-width': 4 }));
    drawSeat(svg, c, pos, opts);
  }
  // Where the last turn's pieces came from and went to.
  for (const st of (opts.game && opts.game.last && !opts.game.turn ? opts.game.last.steps : [])) {
    for (const [p, cls] of [[st.from, 'last-from'], [st.to, 'last-to']]) {
      if (p === BOARD.home) continue;
      const xy = pieceAt(st.colour, p);
      if (xy) svg.append(sv('rect', { x: xy[0] - CELL / 2 + 3, y: xy[1] - CELL / 2 + 3, width: CELL - 6, height: CELL - 6, rx: 5, class: cls, stroke: FILL[st.colour] }));
    }
  }
  if (pos) drawPieces(svg, pos, opts);
  for (const tg of opts.targets || []) {
    const [cx, cy] = tg.xy;
    const g = sv('g', { class: 'target', tabindex: 0, role: 'button', 'aria-label': tg.label, 'data-to': tg.to,
      onclick: (ev) => { ev.stopPropagation(); opts.onTarget(tg.to); },
      onkeydown: (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); opts.onTarget(tg.to); } } },
    sv('circle', { cx, cy, r: 19, fill: 'transparent' }),
    sv('circle', { cx, cy, r: 17, class: 'target-ring' }),
    sv('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'target-text' }, tg.short || ''));
    svg.append(g);
  }
  return svg;
}

function drawSeat(svg, c, pos, opts) {
  const [r0, c0] = seatCorner(c);
  const x = c0 * CELL + 14; const y = r0 * CELL + 14;
  const w = 8 * CELL - 28; const h = 8 * CELL - 28;
  const g = opts.game;
  const seat = g && g.seats[c];
  const toMove = g && g.to_move === c;
  const grp = sv('g', { class: 'seat-panel' + (toMove ? ' to-move' : '') });
  grp.append(sv('rect', { x, y, width: w, height: h, rx: 16, fill: '#fffaf0', stroke: toMove ? FILL[c] : '#d8c7a3', 'stroke-width': toMove ? 6 : 2 }));
  grp.append(sv('circle', { cx: x + 30, cy: y + 34, r: 16, fill: FILL[c], stroke: '#0004' }));
  grp.append(sv('text', { x: x + 56, y: y + 41, class: 'seat-name' }, cname(c)));
  let line = 70;
  if (seat) {
    grp.append(sv('text', { x: x + 18, y: y + line, class: 'seat-kind' }, seat.kind === 'person' ? t('you') : `${t('cpu')} ${seat.level}`));
    line += 26;
  }
  if (g && g.teams) {
    const partner = { yellow: 'black', black: 'yellow', red: 'green', green: 'red' }[c];
    grp.append(sv('text', { x: x + 18, y: y + line, class: 'seat-small' }, `${cname(c)} + ${cname(partner)}`));
    line += 24;
  }
  const captured = pos.captured.includes(c);
  grp.append(sv('text', { x: x + 18, y: y + line, class: 'seat-small' + (captured ? ' ok' : '') }, `${captured ? '✔' : '✘'} ${t(captured ? 'captured' : 'not_captured')}`));
  line += 30;
  // Pieces at home.
  const home = pos.pieces[c].filter((p) => p === BOARD.home).length;
  grp.append(sv('text', { x: x + 18, y: y + line, class: 'seat-small' }, `${t('home')}:`));
  for (let i = 0; i < 4; i++) {
    grp.append(sv('circle', { cx: x + 90 + i * 30, cy: y + line - 6, r: 11, fill: i < home ? FILL[c] : 'none', stroke: i < home ? '#0006' : '#c9b58f', 'stroke-width': 2, 'stroke-dasharray': i < home ? null : '3 3', class: i < home ? 'home-piece' : null }));
  }
  line += 34;
  if (toMove && g.turn) {
    grp.append(sv('text', { x: x + 18, y: y + line, class: 'seat-small strong' }, `${t('thrown')}: ${g.turn.throw.join(' · ')} = ${g.turn.total}`));
  }
  svg.append(grp);
}

function pieceAt(c, p) {
  if (p === 0) {
    const [r, col] = CENTRE[armOf(BOARD.tracks[c][1])];
    return [col * CELL + CELL / 2, r * CELL + CELL / 2];
  }
  const rc = BOARD.tracks[c][p];
  if (!rc) return null;
  return [rc[1] * CELL + CELL / 2, rc[0] * CELL + CELL / 2];
}

function drawPieces(svg, pos, opts) {
  // Group the units by cell so that several on one square sit side by side.
  const cells = new Map();
  const blocks = pos.blocks || [];
  for (const c of Object.keys(pos.pieces)) {
    const counts = new Map();
    for (const p of pos.pieces[c]) if (p !== BOARD.home) counts.set(p, (counts.get(p) || 0) + 1);
    for (const [p, n] of counts) {
      const xy = pieceAt(c, p);
      if (!xy) continue;
      const key = xy.join(',');
      if (!cells.has(key)) cells.set(key, []);
      const block = blocks.find((b) => b.colour === c && b.progress === p);
      cells.get(key).push({ c, p, n, xy, block });
    }
  }
  const g = opts.game;
  const blockTurns = g ? g.block_turns : 0;
  const preset = g && META.presets.find((p) => p.name === g.preset);
  const stacking = g && ((g.options && g.options.stacking) || (preset && preset.values.stacking));
  for (const units of cells.values()) {
    units.forEach((u, i) => {
      const k = units.length;
      const dx = k === 1 ? 0 : (i - (k - 1) / 2) * (u.p === 0 ? 24 : 14);
      const cx = u.xy[0] + dx; const cy = u.xy[1];
      const movable = opts.movable && opts.movable.has(`${u.c}:${u.p}`);
      const selected = opts.sel && opts.sel.c === u.c && opts.sel.p === u.p;
      const r = u.p === 0 ? 10 : 13;
      const grp = sv('g', { class: 'piece' + (movable ? ' movable' : '') + (selected ? ' selected' : ''),
        'data-colour': u.c, 'data-progress': u.p, 'data-count': u.n,
        tabindex: movable ? 0 : null, role: movable ? 'button' : null,
        'aria-label': `${cname(u.c)} ${u.p === 0 ? t('start_area') : u.p} ×${u.n}`,
        onclick: movable && opts.onPiece ? (ev) => { ev.stopPropagation(); opts.onPiece(u.c, u.p); } : null,
        onkeydown: movable && opts.onPiece ? (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); opts.onPiece(u.c, u.p); } } : null });
      // A larger invisible area to tap on a small screen.
      if (movable) grp.append(sv('circle', { cx, cy, r: 19, fill: 'transparent', class: 'hit' }));
      if (u.n > 1 && u.p !== 0) {
        grp.append(sv('circle', { cx: cx + 2, cy: cy + 3, r, fill: FILL[u.c], stroke: '#0008', 'stroke-width': 1.5 }));
      }
      if (u.block) {
        grp.append(sv('rect', { x: cx - r - 3, y: cy - r - 3, width: 2 * r + 6, height: 2 * r + 6, rx: 4, fill: 'none', stroke: '#111', 'stroke-width': 2.5, 'stroke-dasharray': '4 2' }));
      }
      grp.append(sv('circle', { cx, cy, r, fill: FILL[u.c], stroke: u.c === 'black' ? '#bbb' : '#0008', 'stroke-width': 1.5 }));
      grp.append(sv('circle', { cx, cy, r, fill: 'url(#shine)' }));
      if (u.n > 1 && u.p !== 0 && stacking === 'group') {
        // A group: pieces that stand together (they move together only with a pair).
        grp.append(sv('rect', { x: cx + r - 12, y: cy - r - 6, width: 20, height: 16, rx: 3, fill: '#fff', stroke: '#333', 'stroke-width': 1 }));
        grp.append(sv('text', { x: cx + r - 2, y: cy - r + 6, 'text-anchor': 'middle', class: 'count' }, `${u.n}g`));
      } else if (u.n > 1) {
        grp.append(sv('circle', { cx: cx + r - 2, cy: cy - r + 2, r: 8, fill: '#fff', stroke: '#333', 'stroke-width': 1 }));
        grp.append(sv('text', { x: cx + r - 2, y: cy - r + 6, 'text-anchor': 'middle', class: 'count' }, u.n));
      }
      if (u.block) {
        const left = Math.max(0, blockTurns - u.block.age);
        grp.append(sv('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'blk', fill: INK[u.c] }, `B${left}`));
      }
      svg.append(grp);
    });
  }
}

function die(value, faces, rolling) {
  // A long die seen from above: one face up, its pips in a row.
  const w = 34; const h = 96;
  const s = sv('svg', { viewBox: `0 0 ${w} ${h}`, class: 'die' + (rolling ? ' rolling' : ''), width: w, height: h, role: 'img', 'aria-label': String(value) });
  s.append(sv('rect', { x: 1, y: 1, width: w - 2, height: h - 2, rx: 8, fill: '#fdf6e3', stroke: '#6b4a2b', 'stroke-width': 2 }));
  const ys = { 1: [48], 2: [32, 64], 3: [24, 48, 72], 4: [18, 38, 58, 78], 5: [14, 31, 48, 65, 82], 6: [12, 27, 42, 57, 72, 87] }[value] || [];
  for (const y of ys) s.append(sv('circle', { cx: w / 2, cy: y, r: 4.5, fill: value === 1 ? '#b3261e' : '#222' }));
  return s;
}

// ---------- game page ----------

function stepLabel(s) {
  const parts = [];
  if (s.pieces > 1) parts.push(`${s.pieces} ${t('pieces')}`);
  parts.push(`${LETTER[s.colour]}${s.from}→${s.to === BOARD.home ? t('home') : s.to}`);
  parts.push(`${t('by')} ${s.by}` + (s.dice === 2 ? ` (${t('pair')})` : s.dice === 0 ? ` (${t('part')})` : ''));
  if (s.declare === 'super') parts.push(t('declare_super'));
  if (s.declare === 'block') parts.push(t('declare_block'));
  return parts.join(' · ');
}

async function gamePage(main, id) {
  let g = await api('GET', `/api/games/${id}`);
  let sel = null;
  let lastThrowKey = null;
  let busy = false;
  let hintBox = el('div', { class: 'hint' });
  const wrap = el('div', { class: 'game' });
  main.replaceChildren(wrap);

  function isPersonTurn() {
    return g.outcome === 'playing' && g.to_move_kind === 'person';
  }

  async function act(path, body) {
    if (busy) return;
    busy = true;
    try {
      const r = await api('POST', `/api/games/${id}/${path}`, Object.assign({ seat: g.to_move }, body || {}));
      // The socket may already have brought a later state (a computer playing on).
      g = pushed && pushed.version > r.version ? pushed : r;
      sel = null;
      render();
    } catch (e) {
      toast(e.message, true);
      await refresh(true);
    } finally { busy = false; }
  }

  async function explain(colour, from, to) {
    // Ask the server why this move is not allowed, in words.
    const count = g.position.pieces[colour].filter((p) => p === from).length;
    const step = { colour, from, to, pieces: count > 0 ? 1 : 1, by: Math.max(0, to - from), dice: 1 };
    try {
      const r = await api('POST', `/api/games/${id}/check`, { seat: g.to_move, step });
      if (!r.allowed) toast((lang === 'ru' && r.why_ru) || r.why, true);
    } catch (e) { toast(e.message, true); }
  }

  function legal() { return (g.turn && g.turn.legal) || []; }

  function onPiece(c, p) {
    sel = sel && sel.c === c && sel.p === p ? null : { c, p };
    render();
  }

  function chooseStep(options) {
    return new Promise((resolve) => {
      const dlg = el('div', { class: 'modal', role: 'dialog', 'aria-modal': 'true' });
      const close = (v) => { dlg.remove(); document.removeEventListener('keydown', esc); resolve(v); };
      const esc = (ev) => { if (ev.key === 'Escape') close(null); };
      document.addEventListener('keydown', esc);
      dlg.append(el('div', { class: 'modal-box' }, el('h3', {}, t('choose')),
        options.map((s, i) => el('button', { type: 'button', class: 'choice', 'data-i': i, onclick: () => close(s) }, stepLabel(s))),
        el('button', { type: 'button', class: 'link', onclick: () => close(null) }, t('cancel'))));
      document.body.append(dlg);
      dlg.querySelector('button').focus();
    });
  }

  async function onTarget(to) {
    if (!sel) return;
    const options = legal().filter((s) => s.colour === sel.c && s.from === sel.p && s.to === to);
    if (options.length === 0) { await explain(sel.c, sel.p, to); return; }
    const step = options.length === 1 ? options[0] : await chooseStep(options);
    if (step) await act('step', { step });
  }

  function targets() {
    if (!sel || !isPersonTurn()) return [];
    const out = new Map();
    for (const s of legal()) {
      if (s.colour !== sel.c || s.from !== sel.p) continue;
      if (out.has(s.to)) continue;
      let xy;
      if (s.to === BOARD.home) xy = [9 * CELL + CELL / 2, 9 * CELL + CELL / 2];
      else xy = pieceAt(s.colour, s.to);
      if (!xy) continue;
      out.set(s.to, { to: s.to, xy, short: s.to === BOARD.home ? '⌂' : String(s.by), label: stepLabel(s) });
    }
    return [...out.values()];
  }

  function render() {
    const turn = g.turn;
    const movable = new Set();
    if (isPersonTurn() && turn) for (const s of legal()) movable.add(`${s.colour}:${s.from}`);
    const board = drawBoard(g.position, { game: g, sel, movable, targets: targets(), onPiece, onTarget });
    board.addEventListener('click', (ev) => {
      // A click on a square that is no target: say why not.
      const rc = ev.target.getAttribute && ev.target.getAttribute('data-rc');
      if (!sel || !rc) { if (sel) { sel = null; render(); } return; }
      const [r, c] = rc.split(',').map(Number);
      const track = BOARD.tracks[sel.c];
      let to = -1;
      for (let p = sel.p + 1; p < track.length; p++) if (track[p] && track[p][0] === r && track[p][1] === c) { to = p; break; }
      if (to > 0) explain(sel.c, sel.p, to); else { sel = null; render(); }
    });

    // Dice.
    const key = turn ? `${g.moves.length}:${turn.colour}:${turn.throw.join(',')}` : null;
    const rolling = key && key !== lastThrowKey;
    lastThrowKey = key || lastThrowKey;
    const dice = el('div', { class: 'dice', 'aria-live': 'polite' },
      turn ? (() => {
        // Dice already used this turn are dimmed (per-die play only).
        const perDie = (g.options.throw || META.presets.find((p) => p.name === g.preset).values.throw) === 'dice';
        const left = turn.dice_left.slice();
        return turn.throw.map((v) => {
          const d = die(v, null, rolling);
          const k = left.indexOf(v);
          if (perDie && k < 0) d.classList.add('used'); else if (k >= 0) left.splice(k, 1);
          return d;
        });
      })() : [die(1, null, false), die(1, null, false), die(1, null, false)].map((d) => { d.classList.add('idle'); return d; }));

    const side = el('aside', { class: 'side' });
    // Status.
    let status;
    if (g.outcome !== 'playing') {
      status = el('div', { class: 'status over', id: 'winner' },
        g.winner ? `${t('winner')}: ${winnerName(g.winner)}` : t('dead'));
    } else {
      const who = el('span', { class: `chip ${g.to_move}` }, cname(g.to_move));
      status = el('div', { class: 'status' }, `${t('turn_of')}: `, who, ' ',
        g.to_move_kind === 'computer' ? el('span', { class: 'muted' }, t('computer_thinking')) : el('strong', {}, t('your_turn')));
    }
    side.append(status, dice);
    if (turn) {
      const info = [];
      if (turn.actor !== turn.colour) info.push(el('p', { class: 'note' }, `${t('actor_partner')}: `, el('span', { class: `chip ${turn.actor}` }, cname(turn.actor))));
      const left = g.options.throw === 'dice' || META.presets.find((p) => p.name === g.preset).values.throw === 'dice'
        ? `${t('dice_left')}: ${turn.dice_left.join(', ') || '—'}`
        : `${t('points_left')}: ${turn.points_left}`;
      info.push(el('p', { class: 'muted' }, left, turn.notation && turn.notation !== '-' ? ` · ${turn.notation}` : ''));
      side.append(...info);
    }
    if (g.teams) {
      side.append(el('p', { class: 'teams' }, el('span', { class: 'chip yellow' }, cname('yellow')), '+', el('span', { class: 'chip black' }, cname('black')),
        ` ${t('vs')} `, el('span', { class: 'chip red' }, cname('red')), '+', el('span', { class: 'chip green' }, cname('green'))));
    }
    // Buttons.
    const btns = el('div', { class: 'buttons' });
    if (isPersonTurn()) {
      if (!turn) btns.append(el('button', { type: 'button', class: 'primary', id: 'throw', onclick: () => act('throw') }, t('throw')));
      else {
        if (turn.steps.length) btns.append(el('button', { type: 'button', id: 'undo', onclick: () => act('undo') }, t('undo')));
        if (turn.can_end) btns.append(el('button', { type: 'button', class: 'primary', id: 'end', onclick: () => act('end') }, legal().length || turn.steps.length ? t('end') : t('pass')));
        btns.append(el('button', { type: 'button', id: 'hint', onclick: showHint }, t('hint')));
      }
    }
    side.append(btns);
    if (isPersonTurn() && turn && legal().length) {
      side.append(el('p', { class: 'muted small' }, t('pick_piece')));
      // The same moves as buttons, for the keyboard and small screens.
      const list = el('div', { class: 'steplist' });
      const seen = new Set();
      for (const s of legal()) {
        const k = JSON.stringify(s);
        if (seen.has(k)) continue; seen.add(k);
        list.append(el('button', { type: 'button', class: 'stepbtn', onclick: () => act('step', { step: s }) }, stepLabel(s)));
      }
      side.append(el('details', {}, el('summary', {}, `${t('moves')} (${seen.size})`), list));
    }
    side.append(hintBox);
    // Move list.
    const ml = el('ol', { class: 'movelist' }, g.moves.map((m) => el('li', {}, el('span', { class: `dot ${m.colour}` }), ` ${m.throw.join(',')} `, el('code', {}, m.notation))));
    side.append(el('h3', {}, t('moves')), ml,
      el('p', { class: 'links' }, el('a', { href: `#/replay/${id}` }, t('replay')), ' · ',
        el('a', { href: `/api/games/${id}/record`, download: `chaupar-${id}.txt` }, t('export')), ' · ',
        el('a', { href: '#/' }, t('lobby'))),
      el('p', { class: 'muted small' }, t('legend')),
      el('p', { class: 'muted small' }, t('keys')));
    const boardBox = el('div', { class: 'board-box' }, board);
    wrap.replaceChildren(boardBox, side);
    ml.scrollTop = ml.scrollHeight;
    if (g.outcome !== 'playing') {
      boardBox.append(el('div', { class: 'overlay', id: 'game-over' },
        el('div', { class: 'over-box' }, el('h2', {}, t('over')),
          el('p', { class: 'big' }, g.winner ? `${t('winner')}: ${winnerName(g.winner)}` : t('dead')),
          el('div', { class: 'buttons' },
            el('a', { class: 'button primary', href: '#/' }, t('new_game')),
            el('a', { class: 'button', href: `#/replay/${id}` }, t('replay')),
            el('button', { type: 'button', onclick: (ev) => ev.target.closest('.overlay').remove() }, '×')))));
    }
  }

  async function showHint() {
    hintBox.replaceChildren(el('p', { class: 'muted' }, t('loading')));
    try {
      const h = await api('GET', `/api/games/${id}/hint`);
      if (!h.plays.length) { hintBox.replaceChildren(el('p', {}, t('no_hint'))); return; }
      hintBox.replaceChildren(el('h3', {}, t('hint')), el('ol', {}, h.plays.slice(0, 5).map((p) =>
        el('li', {}, el('code', {}, p.notation), ` — ${(p.win * 100).toFixed(1)}% ${t('win_chance')}`))));
    } catch (e) { hintBox.replaceChildren(el('p', { class: 'error' }, e.message)); }
  }

  function update(n, force) {
    if (force || n.version !== g.version || n.outcome !== g.outcome) {
      const turnChanged = JSON.stringify(n.turn && n.turn.steps) !== JSON.stringify(g.turn && g.turn.steps) || n.to_move !== g.to_move;
      g = n;
      if (turnChanged) { sel = null; hintBox.replaceChildren(); }
      render();
    }
  }

  async function refresh(force) {
    try {
      update(await api('GET', `/api/games/${id}`), force);
    } catch (_) { /* the next poll tries again */ }
  }

  // Live updates come over a WebSocket (docs/api.md): the state on connect and
  // after every change. While no socket is open the page polls, and it tries
  // the socket again after 0.5, 1, 2, 4 … 15 s.
  let left = false;
  let sock = null;
  let pushed = null;
  let pollTimer = null;
  let retryTimer = null;
  let retries = 0;
  function setLive(how) { wrap.dataset.live = how; }
  function startPolling() {
    setLive('polling');
    if (!pollTimer) pollTimer = setInterval(() => { if (!busy) refresh(false); }, 400);
  }
  function stopPollTimer() {
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  }
  function connect() {
    retryTimer = null;
    if (left) return;
    let s;
    try {
      s = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/games/${encodeURIComponent(id)}/ws`);
    } catch (_) { startPolling(); return; }
    sock = s;
    s.onopen = () => { retries = 0; stopPollTimer(); setLive('socket'); };
    s.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (_) { return; }
      if (m.type === 'state' && m.game) {
        pushed = m.game;
        // An action under way takes the newest state when its answer comes.
        if (!busy) update(m.game, false);
      } else if (m.type === 'deleted') {
        leave();
        toast(t('deleted'), true);
        location.hash = '#/';
      }
    };
    s.onclose = () => {
      if (sock !== s) return;
      sock = null;
      pushed = null;
      if (left) return;
      startPolling();
      retryTimer = setTimeout(connect, Math.min(15000, 500 * 2 ** retries));
      retries++;
    };
  }
  function leave() {
    left = true;
    stopPollTimer();
    if (retryTimer) clearTimeout(retryTimer);
    if (sock) { const s = sock; sock = null; s.close(); }
  }

  function onKey(ev) {
    if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'TEXTAREA' || ev.target.tagName === 'SELECT') return;
    if (document.querySelector('.modal')) return;
    const k = ev.key.toLowerCase();
    if (k === 't' && document.getElementById('throw')) document.getElementById('throw').click();
    else if (k === 'u' && document.getElementById('undo')) document.getElementById('undo').click();
    else if (k === 'e' && document.getElementById('end')) document.getElementById('end').click();
    else if (k === 'h' && document.getElementById('hint')) document.getElementById('hint').click();
    else if (k === 'escape' && sel) { sel = null; render(); }
  }
  document.addEventListener('keydown', onKey);
  stopPolling = () => { leave(); document.removeEventListener('keydown', onKey); };
  render();
  if (typeof WebSocket === 'function') connect(); else startPolling();
}

// ---------- replay ----------

async function replayPage(main, id) {
  const r = await api('GET', `/api/games/${id}/replay`);
  const g = await api('GET', `/api/games/${id}`);
  let i = r.frames.length - 1;
  const boardBox = el('div', { class: 'board-box' });
  const label = el('p', { class: 'status' });
  const slider = el('input', { type: 'range', min: 0, max: r.frames.length - 1, value: i, 'aria-label': 'frame', oninput: () => { i = Number(slider.value); show(); } });
  const diceBox = el('div', { class: 'dice' });
  const reviewBox = el('div', { class: 'review' });
  function show() {
    const f = r.frames[i];
    boardBox.replaceChildren(drawBoard(f.position, { game: Object.assign({}, g, { to_move: f.colour || null, turn: null }) }));
    label.textContent = i === 0 ? t('first') : `${f.turn}. ${cname(f.colour)} — ${f.notation}` + (f.step ? ` (${t('step_of')} ${f.step})` : '');
    diceBox.replaceChildren(...(f.throw ? f.throw.map((v) => die(v)) : []));
    slider.value = i;
  }
  const go = (n) => { i = Math.max(0, Math.min(r.frames.length - 1, n)); show(); };
  const side = el('aside', { class: 'side' },
    el('h2', {}, `${t('replay')} ${id}`), el('p', { class: 'muted' }, r.rules), label, diceBox, slider,
    el('div', { class: 'buttons' },
      el('button', { type: 'button', onclick: () => go(0) }, '«« ' + t('first')),
      el('button', { type: 'button', id: 'prev', onclick: () => go(i - 1) }, '◀ ' + t('prev')),
      el('button', { type: 'button', id: 'next', onclick: () => go(i + 1) }, t('next') + ' ▶'),
      el('button', { type: 'button', onclick: () => go(r.frames.length - 1) }, t('last') + ' »»')),
    el('p', { class: 'links' }, el('a', { href: `/api/games/${id}/record`, download: `chaupar-${id}.txt` }, t('export')), ' · ',
      g.outcome === 'playing' ? el('a', { href: `#/game/${id}` }, t('resume')) : null, g.outcome === 'playing' ? ' · ' : null,
      el('a', { href: '#/' }, t('lobby'))),
    g.winner ? el('p', { class: 'status over' }, `${t('winner')}: ${winnerName(g.winner)}`) : null,
    el('button', { type: 'button', id: 'review', onclick: () => review() }, t('review')),
    reviewBox,
    el('p', { class: 'muted small' }, t('keys')));
  // The review: each side's error rate and luck, and the plays that lost 2% or
  // more, each a link to its turn in the replay.
  async function review() {
    reviewBox.replaceChildren(el('p', { class: 'muted' }, t('reviewing')));
    try {
      const rv = await api('GET', `/api/games/${id}/review`);
      const pct = (x) => `${(100 * x).toFixed(1)}%`;
      const sides = el('ul', { class: 'review-sides' }, rv.sides.map((sd) => el('li', {},
        el('strong', {}, sd.side.split('+').map(cname).join(' + ')),
        `: ${sd.unforced} ${t('unforced')}, ${t('error_rate')} ${pct(sd.error_rate)}; `,
        `${sd.doubtful} ?!, ${sd.bad} ?, ${sd.very_bad} ??; ${t('luck')} ${sd.luck >= 0 ? '+' : ''}${pct(sd.luck)}`)));
      const marks = { doubtful: '?!', bad: '?', 'very bad': '??' };
      const names = { doubtful: t('v_doubtful'), bad: t('v_bad'), 'very bad': t('v_very_bad') };
      const worst = rv.turns.filter((x) => marks[x.verdict]);
      const list = worst.length ? el('ol', { class: 'review-list' }, worst.map((x) => el('li', { value: x.turn },
        el('a', { href: '#', onclick: (ev) => {
          ev.preventDefault();
          const k = r.frames.findIndex((f) => f.turn === x.turn && f.step === 0);
          if (k >= 0) go(k);
        } }, `${cname(x.colour)} ${x.throw}: ${x.played} ${marks[x.verdict]}`),
        ` ${names[x.verdict]}, −${pct(x.loss)}; ${t('best_was')} ${x.best}`)))
        : el('p', {}, t('no_mistakes'));
      reviewBox.replaceChildren(el('h3', {}, t('review_title')), sides, list, el('p', { class: 'muted small' }, t('review_about')));
    } catch (e) { reviewBox.replaceChildren(el('p', { class: 'error' }, e.message)); }
  }
  const onKey = (ev) => {
    if (ev.target.tagName === 'INPUT' && ev.target.type !== 'range') return;
    if (ev.key === 'ArrowLeft') { ev.preventDefault(); go(i - 1); }
    if (ev.key === 'ArrowRight') { ev.preventDefault(); go(i + 1); }
    if (ev.key === 'Home') go(0);
    if (ev.key === 'End') go(r.frames.length - 1);
  };
  document.addEventListener('keydown', onKey);
  stopPolling = () => document.removeEventListener('keydown', onKey);
  main.replaceChildren(el('div', { class: 'game' }, boardBox, side));
  show();
}

// ---------- rules ----------

async function rulesPage(main, presetName) {
  const r = await api('GET', '/api/rules');
  const p = META.presets.find((x) => x.name === presetName) || META.presets[0];
  const tabs = el('div', { class: 'tabs', role: 'tablist' }, META.presets.map((x) =>
    el('a', { href: `#/rules/${x.name}`, class: x.name === p.name ? 'tab active' : 'tab', role: 'tab', 'aria-selected': x.name === p.name ? 'true' : 'false' }, x.name)));
  const table = el('div', { class: 'table' }, el('table', {},
    el('thead', {}, el('tr', {}, el('th', {}, t('option')), el('th', {}, t('value')), el('th', {}, t('about')))),
    el('tbody', {}, META.options.map((o) => el('tr', {}, el('td', {}, el('code', {}, o.name)), el('td', {}, el('strong', {}, p.values[o.name])), el('td', {}, o.about))))));
  const doc = el('article', { class: 'doc' });
  doc.innerHTML = r.html; // rendered on the server from docs/rules.md, escaped there
  doc.addEventListener('click', (ev) => {
    // Links inside the document scroll to their heading, not to another page.
    const a = ev.target.closest('a');
    const href = a && a.getAttribute('href');
    if (href && href.startsWith('#') && !href.startsWith('#/')) {
      ev.preventDefault();
      const target = doc.querySelector(`[id="${CSS.escape(href.slice(1))}"]`);
      if (target) target.scrollIntoView({ behavior: 'smooth' });
    }
  });
  const mini = drawBoard(null, { game: { safe_castles: p.values.safe === 'castles' } });
  mini.classList.add('mini');
  main.replaceChildren(el('div', { class: 'rules' }, el('h1', {}, `${t('rules_page')}: ${p.name}`), tabs,
    el('div', { class: 'rules-top' }, mini, el('section', {}, el('h2', {}, t('preset_values')), el('p', { class: 'muted' }, p.source), table)), doc));
}

route();
