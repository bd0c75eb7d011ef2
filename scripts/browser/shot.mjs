// Screenshot of one page of the web board, for looking at it by eye.
// Usage: node shot.mjs URL OUT.png [WIDTH HEIGHT] [CLICK_SELECTOR...]
import { chromium } from 'playwright-core';

const [url, out, w = '1280', h = '900', ...clicks] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
page.on('console', (m) => { if (m.type() === 'error') console.error(`console: ${m.text()}`); });
await page.goto(url);
await page.waitForTimeout(800);
for (const c of clicks) {
  await page.locator(c).first().dispatchEvent('click');
  await page.waitForTimeout(400);
}
await page.screenshot({ path: out, fullPage: true });
await browser.close();
