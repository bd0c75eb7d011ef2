// Checks a finished game's dice in the browser (docs/fairness.md): the revealed
// secret must hash (SHA-256) to the commitment published before the game, and
// every throw, throw-off first, must be the one HMAC-SHA256(secret, message)
// gives. Uses only WebCrypto, so the page needs no library and trusts nothing
// the server computed.

const SEATS = ['yellow', 'red', 'black', 'green'];
const DOMAIN = new TextEncoder().encode('chaupar-dice/1');

function fromHex(hex) {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A seat's seed as it is in throw `n`'s message: `seeds[seat]` is a string
 * (counting from throw 0) or {seed, from} as in the game's state; a seed counts
 * only from its throw `from` on. */
function seedIn(seeds, seat, n) {
  const s = seeds && seeds[seat];
  if (!s) return '';
  if (typeof s === 'string') return s;
  return Number(s.from || 0) <= n ? String(s.seed || '') : '';
}

/** The HMAC message of throw `n`: domain, each seat's seed (length byte, ASCII; empty
 * before the throw it counts from), n as 8 bytes big-endian. */
export function message(seeds, n) {
  const enc = new TextEncoder();
  const parts = [DOMAIN];
  for (const seat of SEATS) {
    const s = enc.encode(seedIn(seeds, seat, n));
    parts.push(Uint8Array.of(s.length), s);
  }
  const num = new Uint8Array(8);
  new DataView(num.buffer).setBigUint64(0, BigInt(n), false);
  parts.push(num);
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The three dice a MAC gives: die k is faces[(mac[0] >> 2k) & 3]. */
export function throwOf(mac, faces) {
  const b = new Uint8Array(mac)[0];
  return [faces[b & 3], faces[(b >> 2) & 3], faces[(b >> 4) & 3]];
}

/**
 * Verifies a game's dice. `faces` is the game's four face values in ascending
 * order, `throws` every throw in order (throw-off first) as [a, b, c], from
 * throw number `from` (0 but for an imported game continued with fresh dice).
 * Answers {ok: true, count} or {ok: false, reason: 'commitment' | 'format'} or
 * {ok: false, reason: 'throw', n, recorded, expected} (n from 0).
 */
export async function verifyDice({ commit, secret, seeds, faces, throws, from = 0 }) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  const key = fromHex(secret);
  if (!subtle || !key || !fromHex(commit) || !Array.isArray(throws)) return { ok: false, reason: 'format' };
  const digest = toHex(await subtle.digest('SHA-256', key));
  if (digest !== commit.toLowerCase()) return { ok: false, reason: 'commitment' };
  const hmacKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  for (let i = 0; i < throws.length; i++) {
    const n = from + i;
    const expected = throwOf(await subtle.sign('HMAC', hmacKey, message(seeds, n)), faces);
    const recorded = throws[i];
    if (!Array.isArray(recorded) || expected.some((v, i) => v !== recorded[i])) {
      return { ok: false, reason: 'throw', n, recorded, expected };
    }
  }
  return { ok: true, count: throws.length };
}
