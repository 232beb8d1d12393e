// The browser side of scripts/timeline_screenshot: opens DevTools' standalone trace viewer
// (trace_app.html, served by Chromium on its debugging port), loads the timeline through the
// Performance panel's file input, opens the warps' tracks, selects the first slice whose name holds TEXT and takes the
// picture.
//   node timeline_screenshot.js PORT TIMELINE.json OUT.png WIDTH HEIGHT TEXT
const { chromium } = require('playwright-core');

(async () => {
  const [port, trace, out, width, height, select] = process.argv.slice(2);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0].newPage();
    await page.setViewportSize({ width: Number(width), height: Number(height) });
    await page.goto(`http://127.0.0.1:${port}/devtools/trace_app.html`);
    // Without a page to inspect, DevTools first says it has none: dismissed.
    const noTarget = page.getByText('Debugging connection was closed');
    await noTarget.waitFor({ timeout: 20000 });
    await page.keyboard.press('Escape');
    await noTarget.waitFor({ state: 'hidden' });
    await page.getByText('Performance', { exact: true }).first().click();
    await page.locator('input[type=file]').first().setInputFiles(trace);
    // A first trace brings the flame chart's keyboard help: closed.
    const help = page.getByText('Keyboard shortcuts for flame chart');
    await help.waitFor({ timeout: 20000 });
    await page.locator('button[aria-label="Close"]:visible').last().click();
    await help.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Hide sidebar' }).click();
    await page.waitForTimeout(500);
    // The flame chart is the largest canvas: below its time ruler, its first row is the group
    // of warp tracks, opened by a click on its name.
    const boxes = [];
    for (const canvas of await page.locator('canvas:visible').all())
      boxes.push(await canvas.boundingBox());
    const chart = boxes.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
    await page.mouse.click(chart.x + 30, chart.y + 25);
    await page.waitForTimeout(500);
    // The panel's search selects the first slice whose name holds the text: the summary below
    // shows its name (operation and site), time and arguments, and a label its duration and name.
    await page.keyboard.press('Control+f');
    await page.keyboard.type(select);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
})().catch((error) => {
  console.error(`scripts/timeline_screenshot: ${error.message}`);
  process.exit(2);
});
