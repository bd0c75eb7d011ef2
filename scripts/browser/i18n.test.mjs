// The page's plural forms (web/js/i18n.js `count`): Russian numbers take the
// form Intl.PluralRules says ("1 ход", "2 хода", "5 ходов", "21 ход", "72 хода").
// Run: node --experimental-detect-module --test scripts/browser/i18n.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const store = new Map();
globalThis.navigator = { language: 'en-US' };
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
const words = JSON.parse(fs.readFileSync(new URL('../../web/js/text.json', import.meta.url)));
globalThis.fetch = async () => ({ json: async () => words });
const i18n = await import('../../web/js/i18n.js');
await i18n.loadText();

function inLang(l) {
  if (i18n.language() !== l) i18n.toggleLanguage();
}

test('Russian counts take the right form', () => {
  inLang('ru');
  const cases = [[1, '1 ход'], [2, '2 хода'], [4, '4 хода'], [5, '5 ходов'], [11, '11 ходов'],
    [21, '21 ход'], [72, '72 хода'], [111, '111 ходов'], [0, '0 ходов']];
  for (const [n, want] of cases) assert.equal(i18n.count(n, 'n_moves'), want);
  assert.equal(i18n.count(3, 'n_pieces'), '3 фишки');
  assert.equal(i18n.count(25, 'n_throws'), '25 бросков');
  assert.equal(i18n.count(1, 'n_unforced'), '1 ход с выбором');
  assert.equal(i18n.count(2, 'n_tutor_warnings'), '2 предупреждения');
  assert.equal(i18n.count(5, 'n_tutor_warnings'), '5 предупреждений');
  assert.equal(i18n.count(1, 'n_tutor_ended'), '1 ход закончен вопреки предупреждению');
});

test('English counts take one or other', () => {
  inLang('en');
  assert.equal(i18n.count(1, 'n_moves'), '1 move');
  assert.equal(i18n.count(72, 'n_moves'), '72 moves');
  assert.equal(i18n.count(0, 'n_throws'), '0 throws');
  assert.equal(i18n.count(1, 'n_tutor_warnings'), '1 warning');
  assert.equal(i18n.count(2, 'n_tutor_ended'), '2 plays ended anyway');
});

test('every counted word has the forms of both languages', () => {
  for (const [k, [en, ru]] of Object.entries(words).filter(([k]) => k.startsWith('n_'))) {
    assert.equal(en.split('|').length, 2, `${k}: English one|other`);
    assert.equal(ru.split('|').length, 3, `${k}: Russian one|few|many`);
  }
});

test('each preset has a one-screen summary, line for line in both languages', () => {
  for (const p of ['chaupar', 'chausar', 'classic']) {
    const [en, ru] = words[`summary_${p}`];
    const lines = en.split('\n').length;
    assert.ok(lines >= 4 && lines <= 8, `${p}: ${lines} lines`);
    assert.equal(ru.split('\n').length, lines, `${p}: the Russian summary has another number of lines`);
  }
});
