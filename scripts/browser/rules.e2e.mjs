// The rules page as a newcomer reads it: each preset's rules on one screen with
// small boards of its first lessons (each a link to the lesson), the sources
// named in words, a refusal's link landing on its rule's heading, and the same in
// Russian. Usage: node rules.e2e.mjs BASE_URL OUT_DIR (see harness.mjs).
import path from 'node:path';
import { base, out, newPage, runTests } from './harness.mjs';

async function presetSummaries() {
  const page = await newPage();
  for (const preset of ['chaupar', 'chausar', 'classic']) {
    await page.goto(`${base}/#/rules/${preset}`);
    await page.waitForSelector('.summary li');
    const lines = await page.locator('.summary li').count();
    if (lines < 4) throw new Error(`${preset}: the summary has ${lines} lines`);
    const boards = await page.locator('.summary .diagram svg.board').count();
    if (boards < 1) throw new Error(`${preset}: no small board in the summary`);
    const href = await page.locator('.summary .diagram').first().getAttribute('href');
    if (!/^#\/learn\/[a-z0-9-]+$/.test(href || '')) throw new Error(`${preset}: a diagram links to "${href}"`);
    const from = await page.locator('.rules-top p.muted').first().textContent();
    if (/\.txt/.test(from)) throw new Error(`${preset}: the source is named by its file: ${from}`);
  }
  await page.screenshot({ path: path.join(out, 'rules-summary-en.png') });
  // A diagram opens its lesson.
  await page.locator('.summary .diagram').first().click();
  await page.waitForURL(/#\/learn\//);
  await page.waitForSelector('svg.board');
  // A refusal's link: the rule's heading, shown and marked.
  await page.goto(`${base}/#/rules/classic/blockade`);
  await page.waitForSelector('.doc .linked');
  const heading = await page.locator('.doc .linked').textContent();
  if (!heading.startsWith('blockade')) throw new Error(`the marked heading is "${heading}"`);
  // The same page in Russian.
  await page.goto(`${base}/#/rules/chaupar`);
  await page.waitForSelector('.summary li');
  await page.click('#lang');
  await page.waitForFunction(() => (document.querySelector('.summary h2') || {}).textContent === 'Коротко');
  const first = await page.locator('.summary li').first().textContent();
  if (!/команд/.test(first)) throw new Error(`the Russian summary begins "${first}"`);
  await page.screenshot({ path: path.join(out, 'rules-summary-ru.png') });
  await page.click('#lang');
  await page.context().close();
  console.log('browser: rules: summaries with lesson boards in every preset, a rule link marked, Russian');
}

await runTests('rules', [presetSummaries]);
