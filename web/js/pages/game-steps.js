// Steps as the person sees them on the game page: a step in words, the places
// a selected piece may go, and the choice between steps that end on one square.
import { el } from '../dom.js';
import { geometry, letter } from '../facts.js';
import { t, count } from '../i18n.js';
import { centreOf, pieceAt } from '../layout.js';

/** A step in words: "2 pieces · Y6→12 · by 6 (equal pair) · join as a super-piece". */
export function stepLabel(s) {
  const parts = [];
  if (s.pieces > 1) parts.push(count(s.pieces, 'n_pieces'));
  parts.push(`${letter(s.colour)}${s.from}→${s.to === geometry().home ? t('home') : s.to}`);
  parts.push(`${t('by')} ${s.by}` + (s.dice === 2 ? ` (${t('pair')})` : s.dice === 0 ? ` (${t('part')})` : ''));
  if (s.declare === 'super') parts.push(t('declare_super'));
  if (s.declare === 'block') parts.push(t('declare_block'));
  return parts.join(' · ');
}

/** The places the selected unit `sel` ({c, p}) may go by the `legal` steps, one per destination. */
export function targetsOf(legal, sel) {
  const geo = geometry();
  const out = new Map();
  for (const s of legal) {
    if (s.colour !== sel.c || s.from !== sel.p || out.has(s.to)) continue;
    const home = s.to === geo.home;
    const xy = home ? centreOf([9, 9]) : pieceAt(geo, s.colour, s.to);
    if (xy) out.set(s.to, { to: s.to, xy, short: home ? '⌂' : String(s.by), label: stepLabel(s) });
  }
  return [...out.values()];
}

/** Asks which of several steps to the same square to take; answers it, or null if cancelled. */
export function chooseStep(options) {
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
