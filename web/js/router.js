// The router: reads the hash (#/, #/game/ID, #/replay/ID, #/rules/PRESET),
// translates the page's fixed words, and shows the page for it. A page is
// `async (main, arg, signal) => stop`, where stop (optional) ends its timers,
// sockets and key handlers when another page is shown, and `signal` (an
// AbortSignal) is aborted as soon as another page is asked for: a page checks
// it (`gone(signal)`) after each await, before it touches the page, so that a
// page still loading never draws over the one shown after it.
import { el } from './dom.js';
import { language, t } from './i18n.js';
import { loadFacts } from './facts.js';

let pages = null;
let stopPage = null;
let current = null; // the AbortController of the page shown now

/** Starts routing with pages {lobby, game, replay, rules, join} (join reads the whole hash: #/join/ID/SEAT/INVITE). */
export function startRouter(table) {
  pages = table;
  window.addEventListener('hashchange', route);
  route();
}

/** True once the page given `signal` is no longer the one shown (another page was asked for). */
export function gone(signal) {
  return Boolean(signal && signal.aborted);
}

/** Shows the page the hash names (again). */
export async function route() {
  if (stopPage) { stopPage(); stopPage = null; }
  if (current) current.abort();
  const me = new AbortController();
  current = me;
  const signal = me.signal;
  translateStatic();
  const main = document.getElementById('main');
  main.replaceChildren(el('p', { class: 'muted' }, t('loading')));
  const [name, arg] = location.hash.replace(/^#\/?/, '').split('/');
  try {
    await loadFacts();
    if (gone(signal)) return;
    const stop = await pageFor(name, arg)(main, arg, signal);
    if (!gone(signal)) stopPage = stop || null;
    else if (stop) stop();
  } catch (e) {
    // A page left while loading says nothing over the page shown after it.
    if (gone(signal)) return;
    main.replaceChildren(el('p', { class: 'error' }, `${t('error')}: ${e.message}`), el('a', { href: '#/' }, t('lobby')));
  }
}

function pageFor(name, arg) {
  if (name === 'game' && arg) return pages.game;
  if (name === 'replay' && arg) return pages.replay;
  if (name === 'join' && arg) return pages.join;
  if (name === 'rules') return (main, _arg, signal) => pages.rules(main, arg || 'chaupar', signal);
  if (name === 'learn') return (main, _arg, signal) => pages.learn(main, arg, signal);
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
