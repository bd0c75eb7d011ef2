// Translations: every word the page shows, in English and Russian side by side
// (text.json, beside this module), and the language chosen (kept in localStorage).

// text.json: key -> [English, Russian], loaded once before the first page.
let TEXT = {};

/** Loads the words of the page (call once, before anything is shown). */
export async function loadText() {
  const r = await fetch(new URL('./text.json', import.meta.url));
  TEXT = await r.json();
}

const LANGS = ['en', 'ru'];
let lang = localStorage.getItem('chaupar.lang') || ((navigator.language || '').startsWith('ru') ? 'ru' : 'en');

/** The language shown: 'en' or 'ru'. */
export const language = () => lang;

/** Switches between English and Russian and remembers the choice. */
export function toggleLanguage() {
  lang = lang === 'en' ? 'ru' : 'en';
  localStorage.setItem('chaupar.lang', lang);
}

/** The text of key `k` in the language shown (the key itself if unknown). */
export function t(k) {
  const row = TEXT[k];
  return row ? row[LANGS.indexOf(lang)] || row[0] : k;
}

/**
 * `n` and the word of key `k` in the plural form `n` takes, as
 * Intl.PluralRules says: the key's text lists the forms separated by `|`, in
 * English one|other, in Russian one|few|many ("1 ход", "2 хода", "5 ходов",
 * "21 ход"). Unknown categories take the last form.
 */
export function count(n, k) {
  const forms = t(k).split('|');
  const order = lang === 'ru' ? ['one', 'few', 'many'] : ['one', 'other'];
  const i = order.indexOf(new Intl.PluralRules(lang === 'ru' ? 'ru-RU' : 'en-US').select(n));
  return `${n} ${forms[i < 0 ? forms.length - 1 : Math.min(i, forms.length - 1)]}`;
}

/** A colour's name ("yellow" -> "Yellow" / "Жёлтые"). */
export const cname = (c) => (TEXT[c] ? t(c) : c);

/** A side's name: "yellow+black" -> "Yellow + Black". */
export const sideName = (s) => s.split('+').map(cname).join(' + ');

/** Of a server message given in both languages, the one shown. */
export const inLanguage = (en, ru) => (lang === 'ru' && ru) || en;
