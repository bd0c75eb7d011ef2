// The router: reads the hash (#/, #/game/ID, #/replay/ID, #/rules/PRESET),
// translates the page's fixed words, and shows the page for it. A page is
// `async (main, arg) => stop`, where stop (optional) ends its timers, sockets
// and key handlers when another page is shown.
import { el } from './dom.js';
import { language, t } from './i18n.js';
import { loadFacts } from './facts.js';

let pages = null;
let stopPage = null;
let shown = 0; // counts the pages shown, so that a page that loads late knows it is gone

/** Starts routing with pages {lobby, game, replay, rules, join} (join reads the whole hash: #/join/ID/SEAT/INVITE). */
export function startRouter(table) {
  pages = table;
  window.addEventListener('hashchange', route);
  route();
}

/** Shows the page the hash names (again). */
export async function route() {
  if (stopPage) { stopPage(); stopPage = null; }
  const me = ++shown;
  translateStatic();
  const main = document.getElementById('main');
  main.replaceChildren(el('p', { class: 'muted' }, t('loading')));
  const [name, arg] = location.hash.replace(/^#\/?/, '').split('/');
  try {
    await loadFacts();
    const stop = await pageFor(name, arg)(main, arg);
    if (me === shown) stopPage = stop || null;
    else if (stop) stop();
  } catch (e) {
    main.replaceChildren(el('p', { class: 'error' }, `${t('error')}: ${e.message}`), el('a', { href: '#/' }, t('lobby')));
  }
}

function pageFor(name, arg) {
  if (name === 'game' && arg) return pages.game;
  if (name === 'replay' && arg) return pages.replay;
  if (name === 'join' && arg) return pages.join;
  if (name === 'rules') return (main) => pages.rules(main, arg || 'chaupar');
  if (name === 'learn') return (main) => pages.learn(main, arg);
  if (name === 'puzzles' && pages.puzzles) return pages.puzzles;
  return pages.lobby;
}

// The words of index.html: [data-t] elements' text, [data-t-label] ones' aria-label.
function translateStatic() {
  document.querySelectorAll('[data-t]').forEach((n) => { n.textContent = t(n.dataset.t); });
  document.querySelectorAll('[data-t-label]').forEach((n) => { n.setAttribute('aria-label', t(n.dataset.tLabel)); });
  document.getElementById('lang').textContent = t('lang');
  document.documentElement.lang = language();
}
