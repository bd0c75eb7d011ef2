// The rules page: a preset's option values, a small board, and the rules text
// (docs/rules.md, rendered by the server).
import * as api from '../api.js';
import { drawBoard } from '../board.js';
import { el } from '../dom.js';
import { geometry, meta, preset } from '../facts.js';
import { language, t } from '../i18n.js';
import { gone } from '../router.js';

/** A preset's sources in words ("the rulebook + the Russian rules"), not as file names. */
export function sourceWords(source) {
  return source.split('+').map((f) => t(`src_${f.trim()}`)).join(' + ');
}

/** Small boards of the first lessons of preset `p`, each a link to its lesson (none if the lessons cannot be had). */
async function diagrams(p) {
  let lessons = [];
  try { lessons = (await api.lessons()).lessons.filter((l) => l.preset === p.name).slice(0, 3); } catch (_) { return el('div'); }
  const partners = {};
  for (const c of meta().colours) partners[c.name] = c.partner;
  return el('div', { class: 'diagrams' }, lessons.map((l) => {
    const pos = l.position;
    const game = {
      to_move: pos.to_move, seats: {}, teams: false, partners, turn: null,
      safe_castles: ((pos.options && pos.options.safe) || p.values.safe) === 'castles',
      block_turns: Number((pos.options && pos.options.block_turns) || p.values.block_turns || 3),
    };
    const board = drawBoard(geometry(), pos, { game, stacking: (pos.options && pos.options.stacking) || p.values.stacking, movable: new Set() });
    board.classList.add('mini');
    const title = language() === 'ru' ? l.title.ru : l.title.en;
    return el('a', { class: 'diagram', href: `#/learn/${l.id}` }, board, el('span', {}, `${title} ›`));
  }));
}

/** Shows the rules of preset `name` (the first preset if there is no such one) in `main` (unless `signal` says another page was asked for meanwhile). */
export async function rulesPage(main, name, signal) {
  const r = await api.rulesText();
  if (gone(signal)) return;
  const M = meta();
  const p = preset(name) || M.presets[0];
  const tabs = el('div', { class: 'tabs', role: 'tablist' }, M.presets.map((x) =>
    el('a', { href: `#/rules/${x.name}`, class: x.name === p.name ? 'tab active' : 'tab', role: 'tab', 'aria-selected': x.name === p.name ? 'true' : 'false' }, x.name)));
  const table = el('div', { class: 'table' }, el('table', {},
    el('thead', {}, el('tr', {}, el('th', {}, t('option')), el('th', {}, t('value')), el('th', {}, t('about')))),
    el('tbody', {}, M.options.map((o) => el('tr', {}, el('td', {}, el('code', {}, o.name)), el('td', {}, el('strong', {}, p.values[o.name])), el('td', {}, o.about))))));
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
  const mini = drawBoard(geometry(), null, { game: { safe_castles: p.values.safe === 'castles' } });
  mini.classList.add('mini');
  // A preset's rules on one screen, above the option table and the full text,
  // with small boards of the preset's first lessons (engine positions).
  const boards = await diagrams(p);
  if (gone(signal)) return;
  const summary = el('section', { class: 'card summary' }, el('h2', {}, t('in_short')),
    el('ul', {}, t(`summary_${p.name}`).split('\n').map((line) => el('li', {}, line))),
    boards);
  main.replaceChildren(el('div', { class: 'rules' }, el('h1', {}, `${t('rules_page')}: ${p.name}`), tabs, summary,
    el('div', { class: 'rules-top' }, mini, el('section', {}, el('h2', {}, t('preset_values')), el('p', { class: 'muted' }, `${t('from_sources')} ${sourceWords(p.source)}`), table)), doc));
  // #/rules/PRESET/RULE (a refusal's link): the rule's heading, shown and marked.
  const rule = location.hash.split('/')[3];
  const heading = rule && doc.querySelector(`[id="${CSS.escape(rule)}"], [id^="${CSS.escape(rule)}-"]`);
  if (heading) {
    heading.classList.add('linked');
    heading.scrollIntoView();
  }
}
