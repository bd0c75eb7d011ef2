// The join page (#/join/ID/SEAT/INVITE, or #/join/ID/SEAT for an open game):
// asks for a display name and takes the seat; the token is kept (api.js) and
// the game opens.
import * as api from '../api.js';
import { el, toast } from '../dom.js';
import { cname, t } from '../i18n.js';
import { gone } from '../router.js';

/** A random client seed for the dice (docs/fairness.md): 32 hex digits. */
function clientSeed() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** Shows the join form for the seat the hash names (unless `signal` says another page was asked for meanwhile). */
export async function joinPage(main, _arg, signal) {
  const [, id, seat, invite] = location.hash.replace(/^#\/?/, '').split('/');
  const g = await api.getGame(id);
  if (gone(signal)) return;
  if (api.held(id).seats[seat] || !(g.free || []).includes(seat)) {
    // Taken already (by this page after a reload, or by someone else): watch or play.
    location.hash = `#/game/${id}`;
    return;
  }
  const name = el('input', { id: 'join-name', maxlength: 24, required: true, autocomplete: 'nickname' });
  const form = el('form', { class: 'card join', id: 'join-form' },
    el('h2', {}, `${t('join')}: `, el('span', { class: `chip ${seat}` }, cname(seat))),
    el('p', { class: 'muted' }, g.rules),
    el('label', {}, el('span', {}, t('your_name')), name),
    el('button', { type: 'submit', class: 'primary', id: 'take-seat' }, t('take_seat')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { seat, name: name.value, client_seed: clientSeed() };
    if (invite) body.invite = invite;
    try {
      await api.joinGame(id, body);
      location.hash = `#/game/${id}`;
    } catch (e) { toast(e.message, true); }
  });
  main.replaceChildren(form);
  name.focus();
}
