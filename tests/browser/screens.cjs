// The app on the screens students own: laptops at device pixel ratios 1, 1.5 and 2, a
// tablet and a phone (upright and sideways) with touch, each on the grid, blending and
// model pages, alone and inside their book chapters; a ratio of 1.25 and a browser zoom
// of 50% on the grid alone; typing an answer on the phone; the model page's weight brush
// by mouse and by finger. Called by check.cjs; saves one
// screenshot a case under OUT (target/screens) for a person to look at.
"use strict";
const fs = require("fs");
const path = require("path");

const SCREENS = [
  { name: "laptop", viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
  { name: "laptop-ratio-2", viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2 },
  { name: "ratio-1.5", viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1.5 },
  { name: "tablet", viewport: { width: 1180, height: 820 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  // A phone's keyboard: how many CSS pixels of its height it takes (about 40% upright,
  // more than half on its side).
  { name: "phone", viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, keyboard: 336 },
  { name: "phone-sideways", viewport: { width: 844, height: 390 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, keyboard: 210 },
  // A 1920x1080 laptop at 125% (Windows' default there), and a 1280x800 screen at a
  // browser zoom of 50% (Chromium's zoom is its device pixel ratio): the grid alone.
  { name: "ratio-1.25", viewport: { width: 1536, height: 864 }, deviceScaleFactor: 1.25, pages: ["grid"], chapter: false },
  { name: "zoom-50", viewport: { width: 2560, height: 1600 }, deviceScaleFactor: 0.5, pages: ["grid"], chapter: false },
];
/// What Playwright emulates of a screen (the rest says what to run on it).
const device = ({ name: _name, pages: _pages, chapter: _chapter, keyboard: _keyboard, ...emulated }) => emulated;

/// The pages, each at a still moment (a clip that plays would move its joints and
/// vertices between the frame that says where they are and the tap).
const PAGES = [["grid", "grid?angle=0.8"], ["blending", "blending"], ["model", "model?t=0.5"]];
/// A finger's least target, in CSS pixels (src/app/layout.rs, TOUCH_TARGET).
const TOUCH_TARGET = 44;

/// What the app says of its layout on its canvas (`data-layout`, src/web/density.rs):
/// `WxH@PPP` then `key=value` fields (the viewport, the small controls, where a joint
/// and a vertex are clear of the rest), in CSS pixels.
function parseLayout(text) {
  const [size, ...fields] = (text || "").split(" ");
  const m = /^(\d+)x(\d+)@([\d.]+)$/.exec(size || "");
  if (!m) return null;
  const field = Object.fromEntries(fields.map((f) => f.split("=")).map(([k, v]) => [k, v.split(",").map(Number)]));
  const point = (v) => v && { x: v[0], y: v[1] };
  const view = field.viewport;
  return {
    width: Number(m[1]), height: Number(m[2]), ppp: Number(m[3]),
    viewport: view ? { x: view[0], y: view[1], w: view[2], h: view[3] } : null,
    small: field.small ? field.small[0] : NaN, firstSmall: field.small ? field.small.slice(1) : [],
    joint: point(field.joint), vertex: point(field.vertex), field: point(field.field),
    menu: point(field.menu), link: point(field.link),
    crowded: { joint: point(field["crowded-joint"]), vertex: point(field["crowded-vertex"]) },
    focus: field.focus ? { x: field.focus[0], y: field.focus[1], w: field.focus[2], h: field.focus[3] } : null,
  };
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

/// A click, or a finger's tap, at `at` (CSS pixels of the top page).
async function tap(page, touch, at) {
  if (touch) {
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [at] });
    await page.waitForTimeout(60);
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  } else {
    await page.mouse.click(at.x, at.y);
  }
}

/// Two fingers about `center` moving apart from `gap` to three times it (or, with
/// `closing`, together from three times it to `gap`).
async function pinch(page, touch, center, gap, closing = false) {
  const points = (g) => [{ x: center.x - g / 2, y: center.y, id: 0 }, { x: center.x + g / 2, y: center.y, id: 1 }];
  const spread = (i) => gap * (closing ? 3 - (2 * i) / 10 : 1 + (2 * i) / 10);
  await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: points(spread(0)) });
  for (let i = 1; i <= 10; i++) {
    await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: points(spread(i)) });
    await page.waitForTimeout(30);
  }
  await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/// Waits until the link in the address bar has not changed for most of a second (a
/// drag's last write waits a quarter of a second, and an idle app draws the frame that
/// writes it a little later), and returns it.
async function settledHash(frame) {
  await frame.waitForTimeout(400);
  let last = null;
  let same = 0;
  for (let i = 0; i < 30 && same < 3; i++) {
    const hash = await frame.evaluate(() => decodeURIComponent(location.hash));
    same = hash === last ? same + 1 : 0;
    last = hash;
    await frame.waitForTimeout(250);
  }
  return last;
}


/// Typing on a phone: a tap on a field gives it the keyboard (the browser's focus goes
/// to the hidden input eframe types through, which is what opens a phone's keyboard),
/// and when the keyboard comes up (the page shrinks under it, as
/// `interactive-widget=resizes-content` in index.html asks) the field stays in view and
/// takes what is typed. Two fields: a check cell's answer, low on the page, which a
/// finger scrolls to; the link box, in the compact bar's menu, where a typed link opens.
const TYPED = [
  {
    what: "an answer", link: "quaternions?question=1", keys: ["0.5"],
    find: async (page, finger, screen) => {
      // The link brings the cell's top into view; a finger scrolls on to its fields.
      for (let tries = 0; tries < 8; tries++) {
        const layout = parseLayout((await measured(page)).layout);
        if (layout.field) return layout.field;
        // On the notebook, near its right edge, clear of the fields and buttons: under the
        // viewport (upright), or left of it (on its side).
        const view = layout.viewport;
        const x = view && view.x > screen.viewport.width * 0.3 ? view.x - 40 : screen.viewport.width * 0.9;
        const h = screen.viewport.height;
        await drag(page, finger, { x, y: h - 40 }, { x: 0, y: -Math.min(150, h * 0.2) });
        await page.waitForTimeout(600);
      }
      return null;
    },
  },
  {
    what: "a link", link: "grid?angle=0.8", keys: ["Control+A", "grid?angle=0.5"], opens: "grid?angle=0.5",
    find: async (page, finger) => {
      const menu = parseLayout((await measured(page)).layout).menu;
      if (!menu) return null;
      await tap(page, finger, menu);
      await page.waitForTimeout(800);
      return parseLayout((await measured(page)).layout).link;
    },
  },
];

async function typing(browser, base, screen, check, out) {
  for (const typed of TYPED) {
    const where = `${screen.name}, typing ${typed.what}`;
    const context = await browser.newContext(device(screen));
    const page = await context.newPage();
    try {
      await page.goto(`${base}/app/index.html#${typed.link}`);
      await page.waitForFunction(() => document.getElementById("status")?.hidden && document.querySelector("canvas").dataset.layout,
        null, { timeout: 90000 });
      await page.waitForTimeout(1500);
      const finger = await context.newCDPSession(page);
      const field = await typed.find(page, finger, screen);
      if (!field) {
        check(`${where}: the field is in view`, false, (await measured(page)).layout);
        continue;
      }
      await tap(page, finger, field);
      await page.waitForTimeout(800);
      // eframe hands the browser's focus to its text input a frame after egui's, and a
      // frame at ratio 3 in a software renderer on a busy machine can take seconds:
      // wait for it (up to 8 s) rather than judge one frame in.
      await page.waitForFunction(() => document.activeElement?.tagName === "INPUT", null, { timeout: 8000 })
        .catch(() => {});
      const focused = parseLayout((await measured(page)).layout).focus;
      const agent = await page.evaluate(() => document.activeElement?.tagName);
      check(`${where}: a tap on the field gives it the keyboard`, focused && agent === "INPUT",
        `focus ${JSON.stringify(focused)}, the browser's focus on ${agent}`);
      if (!focused) continue;
      // The keyboard comes up (screen.keyboard high), over the field where it lies low.
      const above = screen.viewport.height - screen.keyboard;
      await page.setViewportSize({ width: screen.viewport.width, height: above });
      await page.waitForTimeout(1500);
      for (const key of typed.keys) {
        if (key === "Control+A") await page.keyboard.press(key);
        else await page.keyboard.type(key);
        await page.waitForTimeout(300);
      }
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(out, `${screen.name}-typing-${typed.what.split(" ").pop()}.png`) });
      const after = parseLayout((await measured(page)).layout).focus;
      check(`${where}: with the keyboard up, the field is still in view`,
        after && after.y >= 0 && after.y + after.h <= above,
        `${JSON.stringify(after)} in ${above} CSS px; it was at ${focused.y}..${focused.y + focused.h}`);
      if (typed.opens) {
        await page.keyboard.press("Enter");
        const opened = await settledHash(page);
        check(`${where}: Enter opens the typed link`, opened === `#${typed.opens}`, opened);
      }
    } catch (e) {
      check(`${where}: opens and answers`, false, String(e).split("\n")[0]);
    } finally {
      await context.close();
    }
  }
}

/// The model page's weight brush on SimpleSkin's second joint, by mouse and by finger:
/// a drag across the strip paints (the link then names the painted file, and the heat
/// map on screen changes), and a pinch still zooms instead of painting.
const PAINT_LINK = "model?asset=simple_skin&clip=0&t=1&joint=2&brush=true&focus=paint";
/// The camera a link names, if any.
const camera = (link) => (/[?&]camera=([^&]*)/.exec(link) || [])[1];
async function painting(browser, base, screen, check, out) {
  const touch = Boolean(screen.hasTouch);
  const where = `${screen.name}, the model page's brush`;
  const context = await browser.newContext(device(screen));
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  try {
    await page.goto(`${base}/app/index.html#${PAINT_LINK}`);
    await page.waitForFunction(() => document.getElementById("status")?.hidden && document.querySelector("canvas").dataset.layout,
      null, { timeout: 90000 });
    await page.waitForTimeout(1500);
    const view = parseLayout((await measured(page)).layout).viewport;
    const clip = { x: view.x, y: view.y, width: view.w, height: view.h };
    const finger = touch ? await context.newCDPSession(page) : null;
    const center = { x: view.x + view.w / 2, y: view.y + view.h / 2 };
    if (touch) {
      // Two fingers zoom the view and paint nothing.
      await pinch(page, finger, center, Math.min(view.w, view.h) * 0.15);
      const pinched = await settledHash(page);
      check(`${where}: two fingers zoom and paint nothing`, /camera=/.test(pinched) && !/asset=file/.test(pinched), pinched);
      // The link again: the view as it opens, where the strip's vertices sit closer.
      await page.evaluate((link) => { location.hash = link; }, PAINT_LINK);
      await settledHash(page);
    }
    const before = await page.screenshot({ clip });
    const start = await settledHash(page);
    await drag(page, finger, { x: center.x - view.w * 0.15, y: center.y + view.h * 0.1 }, { x: view.w * 0.3, y: 0 }, 16);
    const painted = await settledHash(page);
    const after = await page.screenshot({ clip });
    await page.screenshot({ path: path.join(out, `${screen.name}-model-painted.png`) });
    check(`${where}: a ${touch ? "finger" : "mouse"} drag paints the picked joint's weight`,
      /asset=file/.test(painted) && camera(painted) === camera(start), `${start} -> ${painted}`);
    const a = require("pngjs").PNG.sync.read(before), b = require("pngjs").PNG.sync.read(after);
    let differ = 0;
    for (let i = 0; i < a.data.length; i += 4) {
      if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 30) differ++;
    }
    check(`${where}: the heat map shows the paint`, differ > a.data.length / 4 * 0.005, `${differ} pixels changed`);
    check(`${where}: no page error`, problems.length === 0, problems.join("; "));
  } catch (e) {
    check(`${where}: opens and paints`, false, String(e).split("\n")[0]);
  } finally {
    await context.close();
  }
}

async function screens(browser, base, check, out) {
  fs.mkdirSync(out, { recursive: true });
  // SCREENS=phone,tablet runs only those.
  const only = process.env.SCREENS ? process.env.SCREENS.split(",") : null;
  for (const screen of SCREENS.filter((s) => !only || only.includes(s.name))) {
    const touch = Boolean(screen.hasTouch);
    if (screen.keyboard) await typing(browser, base, screen, check, out);
    if (["laptop-ratio-2", "tablet", "phone"].includes(screen.name)) await painting(browser, base, screen, check, out);
    for (const [slug, link] of PAGES.filter(([slug]) => !screen.pages || screen.pages.includes(slug))) {
      for (const inChapter of screen.chapter === false ? [false] : [false, true]) {
        const where = `${screen.name}, ${slug}${inChapter ? " in its chapter" : ""}`;
        const context = await browser.newContext(device(screen));
        const page = await context.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
        try {
          await page.goto(inChapter ? `${base}/${slug}.html` : `${base}/app/index.html#${link}`);
          let frame = page.mainFrame();
          let offset = { x: 0, y: 0 };
          if (inChapter) {
            const iframe = await page.waitForSelector("iframe.skinlab-live", { timeout: 30000 });
            await iframe.scrollIntoViewIfNeeded();
            frame = await iframe.contentFrame();
          }
          await frame.waitForFunction(() => document.getElementById("status")?.hidden && document.querySelector("canvas").dataset.layout,
            null, { timeout: 90000 });
          if (inChapter) {
            // The chapter's own link, then the still moment the checks aim at.
            await frame.evaluate((link) => { location.hash = link; }, link);
          }
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
            // Room for a finger among the joints, and ten lines of the cells under it.
            check(`${where}: the viewport holds at least 45% of the height`, view.h >= m.height * 0.45,
              `${view.h} of ${m.height} CSS px`);
          }
          if (touch) {
            check(`${where}: nothing a finger must hit is under ${TOUCH_TARGET} CSS px`, layout.small === 0,
              `${layout.small} controls shorter, the first at x,y,w,h ${layout.firstSmall.join(",")} CSS px`);
          }
          const finger = touch ? await context.newCDPSession(page) : null;
          const at = (p) => ({ x: offset.x + p.x, y: offset.y + p.y });
          // Where a joint or a vertex lies clear of the rest; where the view is too small
          // for a finger to tell them apart, nearer, as a reader would bring it: fingers
          // spread (or the wheel turns) over where they crowd.
          const center = { x: offset.x + view.x + view.w / 2, y: offset.y + view.y + view.h / 2 };
          const target = async (kind) => {
            for (let tries = 0; tries < 3; tries++) {
              const now = parseLayout((await measured(frame)).layout);
              if (now[kind]) return now[kind];
              const over = now.crowded[kind] ? at(now.crowded[kind]) : center;
              if (finger) await pinch(page, finger, over, Math.min(view.w, view.h) * 0.2);
              else { await page.mouse.move(over.x, over.y); await page.mouse.wheel(0, -400); }
              await settledHash(frame);
            }
            return null;
          };
          // A click or a tap on a vertex picks it.
          const vertex = await target("vertex");
          if (!vertex) {
            check(`${where}: a vertex lies clear of the joints to tap`, false, (await measured(frame)).layout);
          } else {
            await tap(page, finger, at(vertex));
            const picked = await settledHash(frame);
            check(`${where}: a ${touch ? "tap" : "click"} on a vertex picks it`, /[?&]vertex=/.test(picked),
              `${picked}, tapped at ${vertex.x},${vertex.y} in ${JSON.stringify(view)}`);
          }
          // A joint: the grid's circles are dragged (the bone bends), the robot's tapped.
          if (slug === "grid" || slug === "model") {
            const joint = await target("joint");
            const start = await settledHash(frame);
            if (!joint) {
              check(`${where}: a joint lies clear of the vertices`, false, (await measured(frame)).layout);
            } else if (slug === "grid") {
              await drag(page, finger, at(joint), { x: 0, y: -Math.min(60, view.h * 0.2) });
              const bent = await settledHash(frame);
              check(`${where}: a drag on a joint circle bends its bone`, bent !== start && /angles?=/.test(bent), `${start} -> ${bent}`);
            } else {
              await tap(page, finger, at(joint));
              const picked = await settledHash(frame);
              check(`${where}: a ${touch ? "tap" : "click"} on a joint picks it`, /[?&]joint=/.test(picked), `${start} -> ${picked}`);
            }
          }
          // A drag across the background near the viewport's top left, where no mark is.
          const before = await settledHash(frame);
          const from = { x: offset.x + view.x + view.w * 0.1, y: offset.y + view.y + view.h * 0.12 };
          await drag(page, finger, from, { x: Math.min(90, view.w * 0.3), y: 0 });
          const dragged = await settledHash(frame);
          check(`${where}: a ${touch ? "finger" : "mouse"} drag on the background turns or pans the view`,
            dragged !== before && /camera=/.test(dragged), `${before} -> ${dragged}`);
          if (touch) {
            // Fingers closing: the view may have been brought as near as it goes above.
            await pinch(page, finger, center, Math.min(view.w, view.h) * 0.2, true);
            const pinched = await settledHash(frame);
            check(`${where}: a pinch zooms the view`, pinched !== dragged && /camera=/.test(pinched), `${dragged} -> ${pinched}`);
          }
          if (touch && inChapter) {
            // A finger moving up the viewport moves the view, not the chapter under it;
            // on the chapter's text, it scrolls the chapter.
            const scrollY = () => page.evaluate(() => Math.round(scrollY));
            const still = await scrollY();
            const low = { x: offset.x + view.x + view.w * 0.5, y: offset.y + view.y + view.h * 0.8 };
            await drag(page, finger, low, { x: 0, y: -Math.min(80, view.h * 0.5) });
            await page.waitForTimeout(500);
            const after = await scrollY();
            check(`${where}: a finger on the viewport does not scroll the chapter`, after === still, `${still} -> ${after}`);
            // The text above the frame brought into view (where the frame fills the
            // screen, nothing else shows), then a finger on it, moving up.
            await page.evaluate(() => scrollBy(0, -240));
            await page.waitForTimeout(500);
            const box = await (await page.$("iframe.skinlab-live")).boundingBox();
            const text = { x: screen.viewport.width / 2, y: box.y / 2 };
            const top = await scrollY();
            await drag(page, finger, text, { x: 0, y: -Math.min(100, box.y * 0.45) });
            await page.waitForTimeout(800);
            const read = await scrollY();
            check(`${where}: a finger on the chapter's text scrolls it`, box.y >= 40 && read > top,
              `${top} -> ${read}, the finger at ${text.x},${Math.round(text.y)} (the frame at ${Math.round(box.y)}..${Math.round(box.y + box.height)})`);
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
