// The app on the screens students own: laptops at device pixel ratios 1, 1.5 and 2, a
// tablet and a phone (upright and sideways) with touch, each on the grid, blending and
// model pages, alone and inside their book chapters. Called by check.cjs; saves one
// screenshot a case under OUT (target/screens) for a person to look at.
"use strict";
const fs = require("fs");
const path = require("path");

const SCREENS = [
  { name: "laptop", viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
  { name: "laptop-ratio-2", viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2 },
  { name: "ratio-1.5", viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1.5 },
  { name: "tablet", viewport: { width: 1180, height: 820 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  { name: "phone", viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  { name: "phone-sideways", viewport: { width: 844, height: 390 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
];
const PAGES = ["grid", "blending", "model"];
/// A finger's least target, in CSS pixels (src/app/layout.rs, TOUCH_TARGET).
const TOUCH_TARGET = 44;

/// What the app says of its layout on its canvas (`data-layout`, src/web/density.rs).
function parseLayout(text) {
  const m = /^(\d+)x(\d+)@([\d.]+)(?: viewport=(-?[\d.]+),(-?[\d.]+),([\d.]+),([\d.]+))? small=(\d+)$/.exec(text || "");
  if (!m) return null;
  const n = m.slice(1).map(Number);
  return { width: n[0], height: n[1], ppp: n[2], viewport: m[4] === undefined ? null : { x: n[3], y: n[4], w: n[5], h: n[6] }, small: n[7] };
}

/// What the app's window (the page, or the chapter's frame) measures.
const measured = (frame) => frame.evaluate(() => {
  const canvas = document.querySelector("canvas");
  const box = canvas.getBoundingClientRect();
  return {
    layout: canvas.dataset.layout, hash: decodeURIComponent(location.hash), width: innerWidth, height: innerHeight,
    ratio: devicePixelRatio, text: parseFloat(getComputedStyle(document.documentElement).fontSize) / 16,
    canvas: [canvas.width, canvas.height], css: [box.width, box.height],
  };
});

/// A drag of `steps` moves from `from` by `by` (CSS pixels of the top page), by mouse or
/// by one finger.
async function drag(page, touch, from, by, steps = 10) {
  if (touch) {
    for (let i = 0; i <= steps; i++) {
      const point = { x: from.x + (by.x * i) / steps, y: from.y + (by.y * i) / steps };
      await touch.send("Input.dispatchTouchEvent", { type: i === 0 ? "touchStart" : "touchMove", touchPoints: [point] });
      await page.waitForTimeout(30);
    }
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  } else {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= steps; i++) {
      await page.mouse.move(from.x + (by.x * i) / steps, from.y + (by.y * i) / steps);
      await page.waitForTimeout(30);
    }
    await page.mouse.up();
  }
}

/// Two fingers about `center` moving apart, from `gap` to three times it.
async function pinch(page, touch, center, gap) {
  const points = (g) => [{ x: center.x - g / 2, y: center.y, id: 0 }, { x: center.x + g / 2, y: center.y, id: 1 }];
  await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: points(gap) });
  for (let i = 1; i <= 10; i++) {
    await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: points(gap * (1 + (2 * i) / 10)) });
    await page.waitForTimeout(30);
  }
  await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/// Waits until the link in the address bar has not changed for a while (a drag's last
/// write waits a quarter of a second), and returns it.
async function settledHash(frame) {
  let last = null;
  for (let i = 0; i < 20; i++) {
    const hash = await frame.evaluate(() => decodeURIComponent(location.hash));
    if (hash === last) return hash;
    last = hash;
    await frame.waitForTimeout(300);
  }
  return last;
}

async function screens(browser, base, check, out) {
  fs.mkdirSync(out, { recursive: true });
  for (const screen of SCREENS) {
    const touch = Boolean(screen.hasTouch);
    for (const slug of PAGES) {
      for (const inChapter of [false, true]) {
        const where = `${screen.name}, ${slug}${inChapter ? " in its chapter" : ""}`;
        const context = await browser.newContext(screen);
        const page = await context.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
        try {
          await page.goto(inChapter ? `${base}/${slug}.html` : `${base}/app/index.html#${slug}`);
          let frame = page.mainFrame();
          let offset = { x: 0, y: 0 };
          if (inChapter) {
            const iframe = await page.waitForSelector("iframe.skinlab-live", { timeout: 30000 });
            await iframe.scrollIntoViewIfNeeded();
            frame = await iframe.contentFrame();
          }
          await frame.waitForFunction(() => document.getElementById("status")?.hidden && document.querySelector("canvas").dataset.layout,
            null, { timeout: 90000 });
          await page.waitForTimeout(1500);
          if (inChapter) {
            const box = await (await page.$("iframe.skinlab-live")).boundingBox();
            offset = { x: box.x, y: box.y };
          }
          const shot = path.join(out, `${screen.name}-${slug}${inChapter ? "-chapter" : ""}.png`);
          await page.screenshot({ path: shot });
          const m = await measured(frame);
          const layout = parseLayout(m.layout);
          const points = [m.width / m.text, m.height / m.text];
          check(`${where}: laid out on the CSS size over the text size`,
            layout && Math.abs(layout.width - points[0]) <= 1 && Math.abs(layout.height - points[1]) <= 1
              && Math.abs(layout.ppp - m.ratio * m.text) < 0.01,
            `${m.layout} for ${m.width}x${m.height} CSS px at ratio ${m.ratio}, text ×${m.text}`);
          const crisp = [0, 1].every((i) => Math.abs(m.canvas[i] - Math.round(m.css[i] * m.ratio)) <= 1);
          check(`${where}: the canvas holds a pixel per device pixel`, crisp,
            `${m.canvas.join("x")} for ${m.css.join("x")} CSS px at ratio ${m.ratio}`);
          const view = layout && layout.viewport;
          if (!view) {
            check(`${where}: a viewport is drawn`, false, m.layout);
            continue;
          }
          if (screen.name.startsWith("phone") && !inChapter) {
            check(`${where}: the viewport holds at least half the height`, view.h >= m.height * 0.5,
              `${view.h} of ${m.height} CSS px`);
          }
          if (touch) {
            check(`${where}: nothing a finger must hit is under ${TOUCH_TARGET} CSS px`, layout.small === 0,
              `${layout.small} controls shorter`);
          }
          const finger = touch ? await context.newCDPSession(page) : null;
          // A drag across the background near the viewport's top left, where no mark is.
          const before = await settledHash(frame);
          const from = { x: offset.x + view.x + view.w * 0.1, y: offset.y + view.y + view.h * 0.12 };
          await drag(page, finger, from, { x: Math.min(90, view.w * 0.3), y: 0 });
          const dragged = await settledHash(frame);
          check(`${where}: a ${touch ? "finger" : "mouse"} drag on the background turns or pans the view`,
            dragged !== before && /camera=/.test(dragged), `${before} -> ${dragged}`);
          if (touch) {
            const center = { x: offset.x + view.x + view.w / 2, y: offset.y + view.y + view.h / 2 };
            await pinch(page, finger, center, Math.min(view.w, view.h) * 0.2);
            const pinched = await settledHash(frame);
            check(`${where}: a pinch zooms the view`, pinched !== dragged && /camera=/.test(pinched), `${dragged} -> ${pinched}`);
          }
          check(`${where}: no page error`, problems.length === 0, problems.join("; "));
        } catch (e) {
          check(`${where}: opens and answers`, false, String(e).split("\n")[0]);
        } finally {
          await context.close();
        }
      }
    }
  }
}

module.exports = { screens };
