// What every browser test file shares: the headless Chromium, a click that
// survives moving elements, the page's logged errors, and the loop that runs a
// file's tests and counts them.
//
// A test file: `import { browser, click, errors, runTests } from './harness.mjs'`,
// its tests as async functions, then `await runTests('name', [testA, testB])`.
// Run as `node FILE.mjs BASE_URL OUT_DIR`; BROWSER_TESTS=testA,... runs only those.
import { chromium } from 'playwright-core';
import fs from 'node:fs';

/** The server's address (first argument). */
export const base = process.argv[2] || 'http://127.0.0.1:8080';
/** Where screenshots go (second argument). */
export const out = process.argv[3] || 'target/browser';
fs.mkdirSync(out, { recursive: true });

/** Errors the pages logged during the test running now (a test fails if any). */
export const errors = [];

/** The browser. */
export const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** A new page (in its own context) whose console errors are collected. */
export async function newPage(options = {}) {
  const context = await browser.newContext(Object.assign({ viewport: { width: 1280, height: 900 } }, options));
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  return page;
}

/** Clicks the first element matching `selector`. */
export async function click(page, selector) {
  const loc = page.locator(selector).first();
  try {
    await loc.click({ timeout: 1500 });
  } catch (_) {
    // Covered or moving: send the click to the element itself.
    await loc.dispatchEvent('click', {}, { timeout: 1500 });
  }
}

/** Runs the tests (BROWSER_TESTS filters them by name), prints `browser: NAME: P passed, F failed`, closes the browser and exits. */
export async function runTests(name, tests) {
  let passed = 0;
  let failed = 0;
  const only = (process.env.BROWSER_TESTS || '').split(',').filter(Boolean);
  for (const test of tests.filter((f) => !only.length || only.includes(f.name))) {
    try {
      errors.length = 0;
      await test();
      if (errors.length) throw new Error(`the page logged errors:\n  ${errors.join('\n  ')}`);
      passed++;
    } catch (e) {
      // Where in the test file it failed (the first frame of a test file).
      const at = String(e.stack || '').split('\n').find((l) => /\.(e2e\.)?mjs:\d+/.test(l) && !l.includes('harness.mjs'));
      console.error(`browser: FAILED: ${test.name}: ${e.message}${at ? ` (${at.trim()})` : ''}`);
      failed++;
    }
  }
  await browser.close();
  console.log(`browser: ${name}: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
