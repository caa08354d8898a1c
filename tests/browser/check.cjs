// Browser checks of the built book and the web app inside it, in headless Chromium.
//   NODE_PATH=target/tools/node_modules node tests/browser/check.cjs BOOK_DIR [--empty-app DIR] SLUG...
// Serves BOOK_DIR on 127.0.0.1, opens every page link, and prints one line per check
// and a closing "N passed, N failed" line. Exits non-zero when a check fails.
// With --empty-app (DIR as `scripts/build-web --empty-app` writes it), an empty eframe
// app is loaded beside each page link, and its first frame is reported beside the app's.
"use strict";
const http = require("http");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");
const { PNG } = require("pngjs");
const { screens } = require("./screens.cjs");

const args = process.argv.slice(2);
const bookDir = args.shift();
const emptyAppDir = args[0] === "--empty-app" ? args.splice(0, 2)[1] : null;
const slugs = args;
if (!bookDir || slugs.length === 0) {
  console.error("usage: check.cjs BOOK_DIR SLUG...");
  process.exit(2);
}
const MESH_COLOR = [130, 50, 170];
// The hierarchy page's wrong-order ghost (cells::WRONG in src/pages/hierarchy).
const WRONG_PINK = [255, 110, 200];
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".png": "image/png", ".svg": "image/svg+xml", ".json": "application/json",
  ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".ico": "image/x-icon", ".txt": "text/plain" };

function serve(root) {
  root = path.resolve(root);
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split("?")[0].split("#")[0]);
    let file = path.join(root, path.normalize(url));
    if (!file.startsWith(root)) { res.writeHead(403); return res.end(); }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); return res.end("not found"); }
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok - ${name}${detail ? ` (${detail})` : ""}`); }
  else { failed++; console.log(`FAILED - ${name}${detail ? `: ${detail}` : ""}`); }
}

/// Decoded PNG of a screenshot; region as fractions of the image.
function region(png, [x0, y0, x1, y1]) {
  const img = PNG.sync.read(png);
  const px = [];
  for (let y = Math.floor(y0 * img.height); y < Math.floor(y1 * img.height); y++)
    for (let x = Math.floor(x0 * img.width); x < Math.floor(x1 * img.width); x++) {
      const i = (y * img.width + x) * 4;
      px.push([img.data[i], img.data[i + 1], img.data[i + 2], x, y]);
    }
  return px;
}
const distinctColors = (px) => new Set(px.map(([r, g, b]) => (r << 16) | (g << 8) | b)).size;
function colorBox(px, color) {
  let box = null, n = 0;
  for (const [r, g, b, x, y] of px) {
    if (Math.abs(r - color[0]) <= 6 && Math.abs(g - color[1]) <= 6 && Math.abs(b - color[2]) <= 6) {
      n++;
      box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
    }
  }
  return { n, box };
}
const meshBox = (px) => colorBox(px, MESH_COLOR);
/// How many pixels of two same-sized regions differ clearly in colour.
function pixelsDiffering(a, b) {
  let differ = 0;
  for (let i = 0; i < a.length; i++) {
    if (Math.abs(a[i][0] - b[i][0]) + Math.abs(a[i][1] - b[i][1]) + Math.abs(a[i][2] - b[i][2]) > 30) differ++;
  }
  return differ;
}

/// Drops a file named `name` holding `bytes` on the app's canvas, as a user dragging it
/// from their desktop would.
const drop = (page, name, bytes) => page.evaluate(([name, b64]) => {
  const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([data], name));
  const canvas = document.querySelector("canvas");
  for (const type of ["dragenter", "dragover", "drop"]) {
    canvas.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }
}, [name, Buffer.from(bytes).toString("base64")]);
const SIMPLE_SKIN = path.join(__dirname, "..", "..", "assets", "models", "SimpleSkin.gltf");
/// The colour the model page gives a mesh without a material, before it is lit.
const MODEL_TINT = [225, 190, 160];
/// Pixels in that tint lit by the headlight (the loader gives SimpleSkin normals from
/// its triangles): the tint times a shade from 0.35 to 1.
const tintedPixels = (px) => px.filter(([r, g, b]) => {
  const shade = r / MODEL_TINT[0];
  return shade >= 0.3 && shade <= 1.02 && Math.abs(g - shade * MODEL_TINT[1]) <= 8 && Math.abs(b - shade * MODEL_TINT[2]) <= 8;
}).length;

async function openApp(browser, base, fragment) {
  const loaded = await firstFrame(browser, `${base}/app/index.html#${fragment}`);
  await loaded.page.waitForTimeout(1500);
  return loaded;
}

/// Each link opens with no error and the address bar still holds it as written.
async function keepsState(browser, base, fragments) {
  for (const fragment of fragments) {
    const { page, problems } = await openApp(browser, base, fragment);
    const hash = decodeURIComponent(await page.evaluate(() => location.hash));
    check(`${fragment}: opens with no error and keeps its state`, problems.length === 0 && hash === `#${fragment}`, hash);
    await page.close();
  }
}

/// Opens `url` on a fresh page and waits for its first frame to be painted: the page,
/// what went wrong on it, the milliseconds from the navigation to the painted frame
/// (null if it never came), and the phases of its start.
async function firstFrame(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  // The first frame is painted once the app marks `skinlab:painted` (an animation frame
  // after its first one).
  const firstFrameMs = await page.waitForFunction(() => {
    const painted = performance.getEntriesByName("skinlab:painted")[0];
    return document.getElementById("status")?.hidden && painted && painted.startTime;
  }, null, { timeout: 90000 }).then((h) => h.jsonValue()).catch(() => null);
  const phases = firstFrameMs === null ? null : await page.evaluate(startPhases);
  return { page, problems, firstFrameMs, phases };
}

/// Where a first visit's time went, in milliseconds from the navigation: run in the page.
function startPhases() {
  const nav = performance.getEntriesByType("navigation")[0];
  const resource = (name) => performance.getEntriesByType("resource").find((r) => r.name.split("?")[0].endsWith(name));
  const mark = (name) => performance.getEntriesByName(`skinlab:${name}`)[0]?.startTime;
  const js = resource("skinlab.js");
  const wasm = resource("skinlab_bg.wasm");
  const steps = [
    ["page", 0, nav?.responseEnd],
    ["script", nav?.responseEnd, js?.responseEnd],
    ["wasm download", wasm?.startTime, wasm?.responseEnd],
    ["compile and instantiate", wasm?.responseEnd, mark("start")],
    ["models awaited", mark("start"), mark("models")],
    ["eframe, fonts, WebGL", mark("models"), mark("started")],
    ["to the first frame", mark("started"), mark("first-ui")],
    ["first frame's ui", mark("first-ui"), mark("first-ui-done")],
    ["first frame's paint (shaders, draw)", mark("first-ui-done"), mark("painted")],
  ];
  return steps.map(([name, from, to]) => [name, from === undefined || to === undefined ? null : to - from]);
}

/// Opens each fragment, checks it loads cleanly, and returns the viewport region of
/// each screenshot (the right side of the window).
async function viewports(browser, base, fragments) {
  const shots = [];
  for (const fragment of fragments) {
    const { page, problems } = await openApp(browser, base, fragment);
    check(`${fragment} loads cleanly`, problems.length === 0, problems.join("; "));
    shots.push(region(await page.screenshot(), [0.58, 0.1, 0.98, 0.9]));
    await page.close();
  }
  return shots;
}

(async () => {
  const server = await serve(bookDir);
  const base = `http://127.0.0.1:${server.address().port}`;
  const emptyAppServer = emptyAppDir && await serve(emptyAppDir);
  // Every newPage() below gets a fresh context: no storage carries over between loads.
  // Each fresh context is a new browser window, and Chromium may preload that window's
  // own address-bar popup (a WebUI page that fetches some 300 files, in a renderer of its
  // own) while the app starts: 80 to 220 ms of a load on two cores where it overlaps,
  // and a cost no visitor's page load shares (docs/measurements.md). The features below
  // keep that preload out of the timing.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--disable-quic", "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
      "--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup"],
  });
  const firstFrames = [];
  const startPhaseRows = [];
  const emptyFirstFrames = [];
  const emptyPhaseRows = [];
  try {
    // The empty app, loaded beside each page link: the same machine, the same minute.
    // It goes before the link on every other one, as the second of two loads in a row
    // starts sooner (docs/measurements.md, "How to compare two builds here").
    const loadEmptyApp = async (slug) => {
      const empty = await firstFrame(browser, `http://127.0.0.1:${emptyAppServer.address().port}/index.html`);
      check(`the empty app beside ${slug}: first frame, no console error`, empty.firstFrameMs !== null && empty.problems.length === 0,
        `${empty.firstFrameMs ? Math.round(empty.firstFrameMs) : "no"} ms ${empty.problems.join("; ")}`);
      if (empty.firstFrameMs) emptyFirstFrames.push(empty.firstFrameMs);
      if (empty.phases) emptyPhaseRows.push(empty.phases);
      await empty.page.close();
    };
    // ONLY_SCREENS=1 runs the screens alone (screens.cjs), as when one mends them.
    if (!process.env.ONLY_SCREENS) {
      for (const [i, slug] of slugs.entries()) {
        if (emptyAppServer && i % 2 === 1) await loadEmptyApp(slug);
        const { page, problems, firstFrameMs, phases } = await openApp(browser, base, slug);
        check(`${slug}: first frame`, firstFrameMs !== null, firstFrameMs && `${Math.round(firstFrameMs)} ms`);
        if (firstFrameMs) firstFrames.push(firstFrameMs);
        if (phases) {
          const missing = phases.filter(([, ms]) => ms === null).map(([name]) => name);
          check(`${slug}: every phase of the start is marked`, missing.length === 0, missing.join(", "));
          startPhaseRows.push(phases);
        }
        check(`${slug}: no console error, no failed request`, problems.length === 0, problems.join("; "));
        const shot = await page.screenshot();
        const colors = distinctColors(region(shot, [0.62, 0.1, 0.98, 0.85]));
        check(`${slug}: the viewport is not blank`, colors > 8, `${colors} colours`);
        const hash = await page.evaluate(() => location.hash);
        check(`${slug}: the fragment names the page`, hash.startsWith(`#${slug}`), hash);
        await page.close();
        if (emptyAppServer && i % 2 === 0) await loadEmptyApp(slug);
      }

      // The grid, straight and bent: the shader's purple lines move.
      const boxes = [];
      for (const fragment of ["grid?angle=0", "grid?angle=0.8"]) {
        const { page } = await openApp(browser, base, fragment);
        boxes.push(meshBox(region(await page.screenshot(), [0.55, 0.05, 1, 0.92])));
        await page.close();
      }
      const [flat, bent] = boxes;
      const height = (b) => (b.box ? b.box[3] - b.box[1] : 0);
      check("grid: purple skinned lines drawn at angle 0 and 0.8", flat.n > 100 && bent.n > 100, `${flat.n} and ${bent.n} purple pixels`);
      check("grid: bending moves the purple lines", height(bent) > 2 * height(flat), `height ${height(flat)} -> ${height(bent)} px`);

      // Blending: the same twist under LBS and under DQS draws different arms.
      {
        const shots = await viewports(browser, base, ["lbs", "dqs"].map((mode) => `blending?mode=${mode}&twist=3.14`));
        const differ = pixelsDiffering(shots[0], shots[1]);
        check("blending: LBS and DQS at twist 3.14 differ", differ > 2000, `${differ} pixels differ`);
      }

      // Normals: at a non-uniform scale the naive and the inverse-transpose normals light
      // the same arm differently (the shader's u_normal_method).
      if (slugs.includes("normals")) {
        const shots = await viewports(browser, base,
          ["naive", "inverse_transpose"].map((method) => `normals?method=${method}&scale=3&lines=false`));
        const differ = pixelsDiffering(shots[0], shots[1]);
        check("normals: naive and inverse-transpose lighting differ at scale 3", differ > 5000, `${differ} pixels differ`);
      }

      // Quaternions: halfway from A to B, LERP's short quaternion squashes the glider that
      // SLERP keeps whole.
      if (slugs.includes("quaternions")) {
        const shots = await viewports(browser, base, ["lerp", "slerp"].map((method) => `quaternions?method=${method}&t=0.5`));
        const differ = pixelsDiffering(shots[0], shots[1]);
        check("quaternions: LERP and SLERP at t = 0.5 draw different gliders", differ > 1000, `${differ} pixels differ`);
      }

      // Morph targets in WebGL2: the robot surprised and at rest, seen face on, draw
      // different brows (the offsets come from a float texture read by gl_VertexID).
      if (slugs.includes("model")) {
        const face = "clip=Idle&t=0&skeleton=false&camera=0,0.1,3.5,0,4.2,0";
        const shots = await viewports(browser, base, [`model?${face}`, `model?${face}&morph=Surprised:1`]);
        const differ = pixelsDiffering(shots[0], shots[1]);
        check("model: a morph target moves the robot's face in WebGL2", differ > 300, `${differ} pixels differ`);
      }

      // A corrective in WebGL2: LBS with the elbow fix at its weight, and at weight 0,
      // draw different elbows (a blend shape on the blending page's arm).
      if (slugs.includes("shapes")) {
        const shots = await viewports(browser, base, ["shapes?show=fixed", "shapes?show=fixed&fix=0"]);
        const differ = pixelsDiffering(shots[0], shots[1]);
        check("shapes: the corrective mends the LBS elbow in WebGL2", differ > 300, `${differ} pixels differ`);
      }

      // A link from when keyframes were part of the quaternions page opens the keyframes
      // page, and the address bar is corrected to the link of what is shown.
      if (slugs.includes("keyframes")) {
        const { page, problems } = await openApp(browser, base, "quaternions?show=keyframes&time=1.2");
        const hash = decodeURIComponent(await page.evaluate(() => location.hash));
        check("quaternions?show=keyframes&time=1.2 opens keyframes?time=1.2", problems.length === 0 && hash === "#keyframes?time=1.2", hash);
        await page.close();
      }

      // GPU paths: the uniform array, the bone texture (RGBA32F + texelFetch in WebGL2),
      // float and integer indices, and 100 joints (texture by itself) load cleanly, and
      // every path draws the same tail.
      {
        const shots = await viewports(browser, base,
          ["gpu?path=uniform", "gpu?path=texture", "gpu?path=float_index", "gpu?path=int_index", "gpu?path=texture&indices=int"]);
        const colors = distinctColors(shots[1]);
        check("gpu: the bone texture path draws the tail", colors > 8, `${colors} colours`);
        for (let k = 1; k < shots.length; k++) {
          const differ = pixelsDiffering(shots[0], shots[k]);
          check(`gpu: path ${k} draws what the uniform path draws`, differ < 200, `${differ} pixels differ`);
        }
        // GPU = CPU in WebGL2: the page skins its tail on every path with transform
        // feedback and compares each with the CPU; it puts the largest distances on the
        // canvas as data-readout.
        {
          const { page, problems } = await openApp(browser, base, "gpu?path=texture&bend=1.2&twist=0.7");
          const readout = await page.waitForFunction(() => document.querySelector("canvas").dataset.readout, null, { timeout: 30000 })
            .then((h) => h.jsonValue()).catch(() => null);
          const distances = (readout || "").split(" ").map((entry) => Number(entry.split("=")[1]));
          const worst = Math.max(...distances);
          check("gpu: in WebGL2 every path's transform feedback matches the CPU",
            problems.length === 0 && distances.length === 4 && distances.every(Number.isFinite) && worst < 1e-4,
            `${readout || "no readout"}; ${problems.join("; ")}`);
          await page.close();
        }
        const { page, problems } = await openApp(browser, base, "gpu?joints=100&bend=5&twist=4");
        check("gpu?joints=100 (past the uniform budget) loads cleanly", problems.length === 0, problems.join("; "));
        await page.close();
      }

      // The hierarchy's wrong-order ghost (unlit pink lines from the skinning shader): in the
      // T-pose it sits on the figure; with the left upper arm turned 90° the ghost arm leaves
      // the figure's left (screen right) and lands far to its right (screen left).
      if (slugs.includes("hierarchy")) {
        const ghosts = [];
        for (const fragment of ["hierarchy?order=wrong", "hierarchy?rot=upper_arm.L:0,0,1.5707964&order=wrong"]) {
          const { page } = await openApp(browser, base, fragment);
          ghosts.push(colorBox(region(await page.screenshot(), [0.55, 0.15, 1, 0.92]), WRONG_PINK));
          await page.close();
        }
        const [still, turned] = ghosts;
        check("hierarchy: the wrong-order ghost is drawn", still.n > 500 && turned.n > 500, `${still.n} and ${turned.n} pink pixels`);
        const moved = still.box && turned.box && turned.box[0] < still.box[0] - 40 && turned.box[2] < still.box[2] - 40;
        check("hierarchy: turning the upper arm throws the ghost arm to the other side", moved,
          `x ${still.box && still.box[0]}..${still.box && still.box[2]} -> ${turned.box && turned.box[0]}..${turned.box && turned.box[2]}`);
      }

      // The gradient page: the bind pose has no gradient arrows; a crouch moves every joint.
      {
        const pink = (px) => px.filter(([r, g, b]) => r > 120 && b > 80 && r > 1.5 * g && b > 1.3 * g).length;
        const counts = [];
        for (const fragment of ["gradient?pose=bind", "gradient?pose=crouch&joint=hips"]) {
          const { page } = await openApp(browser, base, fragment);
          counts.push(pink(region(await page.screenshot(), [0.6, 0.1, 1, 0.9])));
          await page.close();
        }
        check("gradient: pink gradient arrows only where the target differs from the bind pose",
          counts[0] < 50 && counts[1] > 1000, `${counts[0]} and ${counts[1]} pink pixels`);
      }
      await keepsState(browser, base, ["gradient?a=0,0&b=2.5,-1", "gradient?show=matrices&ma=0.5,1,2",
        "gradient?show=poses&pose=walk&rot=forearm.L:0,0,1.2&joint=hand.L&question=2"]);

      // The binding page: forgetting the inverse bind lifts the head (its purple lines, drawn
      // by the skinning shader) by the head joint's height, two units.
      if (slugs.includes("binding")) {
        const HEAD_PURPLE = [165, 50, 200];
        const heads = [];
        for (const fragment of ["binding?stage=bind_space", "binding?stage=bind_space&forget_inverse_bind=true"]) {
          const { page, problems } = await openApp(browser, base, fragment);
          check(`${fragment} loads cleanly`, problems.length === 0, problems.join("; "));
          heads.push(colorBox(region(await page.screenshot(), [0.55, 0.05, 1, 0.85]), HEAD_PURPLE));
          await page.close();
        }
        const [kept, forgot] = heads;
        check("binding: the head's purple lines are drawn", kept.n > 200 && forgot.n > 200, `${kept.n} and ${forgot.n} purple pixels`);
        check("binding: forgetting the inverse bind lifts the head", kept.box && forgot.box && forgot.box[1] < kept.box[1] - 60,
          `top ${kept.box && kept.box[1]} -> ${forgot.box && forgot.box[1]} px`);
        await keepsState(browser, base, ["binding?stage=bind_space&angles=0,0.5,-0.3&rebind=0,0.5,-0.3",
          "binding?stage=bind_space&inverse_bind=head:1,0,0,0,0,1,0,0,0,0,1,0,0.5,-2,0,1&joint=neck",
          "binding?angles=0.2,0.4,-0.6&stored=true&question=2"]);
      }

      // The model page: bundled models by link, and a file dropped on the canvas opens (the
      // browser reads it asynchronously); a file that is not glTF leaves the model as it was.
      if (slugs.includes("model")) {
        await keepsState(browser, base, ["model?asset=simple_skin&clip=0&t=1", "model?clip=Walking&t=0.4&joint=Head&vertex=100"]);
        const { page, problems } = await openApp(browser, base, "grid");
        const before = region(await page.screenshot(), [0.58, 0.1, 0.98, 0.9]);
        await drop(page, "MySkin.gltf", fs.readFileSync(SIMPLE_SKIN));
        const opened = await page.waitForFunction(() => decodeURIComponent(location.hash).startsWith("#model?asset=file"), null, { timeout: 15000 })
          .then(() => true).catch(() => false);
        check("a .gltf dropped on the app opens on the model page", opened, decodeURIComponent(await page.evaluate(() => location.hash)));
        await page.waitForTimeout(1000);
        const after = region(await page.screenshot(), [0.58, 0.1, 0.98, 0.9]);
        const tinted = tintedPixels(after);
        check("the dropped model is drawn", pixelsDiffering(before, after) > 2000 && tinted > 1000, `${tinted} pixels in the mesh colour`);
        const hashBefore = await page.evaluate(() => location.hash);
        await drop(page, "junk.glb", Buffer.from("not a model at all"));
        await page.waitForTimeout(1500);
        const hashAfter = await page.evaluate(() => location.hash);
        check("a dropped file that is not glTF keeps the model and raises no error",
          hashAfter === hashBefore && problems.length === 0, `${hashAfter}; ${problems.join("; ")}`);
        await page.close();
      }

      // The repair cell saves the model shown as a download: one GLB, named after the
      // model, that opens on its own. The button sits near the top of the cell, at its
      // left; a click that misses it lands on text and does nothing.
      if (slugs.includes("model")) {
        const { page, problems } = await openApp(browser, base, "model?focus=repair");
        let download = null;
        for (let y = 60; y <= 400 && !download; y += 12) {
          const waiting = page.waitForEvent("download", { timeout: 1500 }).catch(() => null);
          await page.mouse.click(60, y);
          download = await waiting;
        }
        let detail = "no download";
        let ok = false;
        if (download) {
          const bytes = fs.readFileSync(await download.path());
          const name = download.suggestedFilename();
          ok = name === "robot.glb" && bytes.subarray(0, 4).toString() === "glTF" && bytes.length > 100000;
          detail = `${name}: ${bytes.length} bytes`;
          try {
            const validator = require("gltf-validator");
            const report = await validator.validateBytes(new Uint8Array(bytes));
            ok = ok && report.issues.numErrors === 0;
            detail += `, ${report.issues.numErrors} validator errors`;
          } catch (e) {
            ok = false;
            detail += `; the validator could not run: ${e}`;
          }
        }
        check("Save as .glb hands the model shown to the browser as one GLB, valid glTF",
          ok && problems.length === 0, `${detail}; ${problems.join("; ")}`);
        await page.close();
      }

      // The fox is fetched beside the app too, and its texture is decoded by the browser:
      // its fur is drawn from the image (red well above green, green above blue), which
      // the tint of a mesh without materials is nowhere near.
      if (slugs.includes("model")) {
        const fur = ([r, g, b]) => r >= 120 && r - g >= 50 && g - b >= 15;
        const furOf = async (fragment) => {
          const { page, problems } = await openApp(browser, base, fragment);
          await page.waitForTimeout(1500);
          const px = region(await page.screenshot(), [0.58, 0.1, 0.98, 0.9]);
          await page.close();
          return { n: px.filter(fur).length, problems };
        };
        const painted = await furOf("model?asset=fox&t=0");
        const tinted = await furOf("model?asset=fox&t=0&materials=false");
        check("the fox is painted with its texture, decoded by the browser",
          painted.problems.length === 0 && painted.n > 3000 && tinted.n < 100,
          `${painted.n} px of fur painted, ${tinted.n} tinted; ${painted.problems.join("; ")}`);
      }

      // The robot is fetched beside the app, not held in it: a page that is not the model
      // page starts without waiting for it, and the model page then opens a link to one
      // of its clips; a server without it leaves the model page saying why, and the app
      // running.
      if (slugs.includes("model")) {
        const { page, problems } = await openApp(browser, base, "grid");
        await page.evaluate(() => { location.hash = "model?clip=Walking&t=0.4"; });
        await page.waitForTimeout(1500);
        const hash = decodeURIComponent(await page.evaluate(() => location.hash));
        check("a link to the robot opened after the app started keeps its clip", hash === "#model?clip=Walking&t=0.4" && problems.length === 0,
          `${hash}; ${problems.join("; ")}`);
        await page.close();
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.route("**/models/**", (route) => route.abort());
        const blocked = await context.newPage();
        const errors = [];
        blocked.on("pageerror", (e) => errors.push(e.message));
        await blocked.goto(`${base}/app/index.html#model`);
        const started = await blocked.waitForFunction(() => document.getElementById("status")?.hidden, null, { timeout: 90000 })
          .then(() => true).catch(() => false);
        await blocked.waitForTimeout(1000);
        check("without its models/ folder the app still starts on the model page", started && errors.length === 0, errors.join("; "));
        await context.close();
      }

      // WebGL context loss (WEBGL_lose_context): the app says what happened, and when the
      // context comes back it draws what it drew before, a dropped file (which no link
      // can name) included.
      if (slugs.includes("model")) {
        const { page, problems } = await openApp(browser, base, "grid");
        await drop(page, "MySkin.gltf", fs.readFileSync(SIMPLE_SKIN));
        await page.waitForFunction(() => decodeURIComponent(location.hash).startsWith("#model?asset=file"), null, { timeout: 15000 }).catch(() => null);
        await page.waitForTimeout(1000);
        const hashBefore = await page.evaluate(() => location.hash);
        const notebook = [0.01, 0.06, 0.55, 0.95];
        const textBefore = region(await page.screenshot(), notebook);
        const statusText = () => page.evaluate(() => {
          const s = document.getElementById("status");
          return s.hidden ? null : s.textContent;
        });
        await page.evaluate(() => {
          window.loseContext = document.querySelector("canvas").getContext("webgl2").getExtension("WEBGL_lose_context");
          window.loseContext.loseContext();
        });
        await page.waitForTimeout(1000);
        const message = await statusText();
        check("a lost WebGL context is explained on the page", message !== null && message.includes("WebGL"), message || "no message");
        await page.evaluate(() => window.loseContext.restoreContext());
        const back = await page.waitForFunction(() => document.getElementById("status").hidden, null, { timeout: 15000 })
          .then(() => true).catch(() => false);
        await page.waitForTimeout(1500);
        const shot = await page.screenshot();
        const tinted = tintedPixels(region(shot, [0.58, 0.1, 0.98, 0.9]));
        const hashAfter = await page.evaluate(() => location.hash);
        // The notebook is laid out as before: same fonts, same scroll.
        const textDiffers = pixelsDiffering(textBefore, region(shot, notebook));
        check("when the context comes back the notebook reads as before", textDiffers < 1000, `${textDiffers} pixels differ`);
        check("when the context comes back the app draws the dropped model again, at the same link",
          back && tinted > 1000 && hashAfter === hashBefore && problems.length === 0,
          `${tinted} pixels in the mesh colour; ${decodeURIComponent(hashAfter)}; ${problems.join("; ")}`);
        await page.close();
      }

      // Compare: two states side by side, each drawn by the shaders: the halves differ.
      {
        const { page, problems } = await openApp(browser, base, "blending?twist=3.1416&compare=mode:lbs|mode:dqs");
        const shot = await page.screenshot();
        const left = region(shot, [0.02, 0.2, 0.48, 0.85]), right = region(shot, [0.52, 0.2, 0.98, 0.85]);
        const differ = pixelsDiffering(left, right);
        check("compare draws two different viewports", problems.length === 0 && distinctColors(left) > 8 && differ > 2000,
          `${differ} pixels differ; ${problems.join("; ")}`);
        await page.close();
      }

      // A lecture deck by link: the slide opens in focus, and PageDown steps to the next.
      {
        const { page, problems } = await openApp(browser, base, "pipeline?deck=lecture:11");
        const hash = decodeURIComponent(await page.evaluate(() => location.hash));
        check("a deck link opens its slide", problems.length === 0 && hash.startsWith("#blending?") && hash.includes("focus=viewport") && hash.endsWith("deck=lecture:11"), hash);
        await page.mouse.click(640, 400);
        await page.keyboard.press("PageDown");
        const stepped = await page.waitForFunction(() => decodeURIComponent(location.hash).endsWith("deck=lecture:12"), null, { timeout: 10000 })
          .then(() => true).catch(() => false);
        check("PageDown steps the deck", stepped, decodeURIComponent(await page.evaluate(() => location.hash)));
        await page.close();
        // A deck link whose slide is on the model page waits for the robot, and opens it.
        // Its number is read from the deck, so a moment added before it moves it along.
        const moments = fs.readFileSync(path.join(bookDir, "decks", "lecture.txt"), "utf8").split("\n")
          .filter((line) => line.trim() && !line.startsWith("#") && !line.startsWith(">"));
        const first = moments.findIndex((line) => line.startsWith("model?")) + 1;
        const robot = await openApp(browser, base, `pipeline?deck=lecture:${first}`);
        const slide = decodeURIComponent(await robot.page.evaluate(() => location.hash));
        check("a deck link to a slide of the robot opens it", first > 0 && robot.problems.length === 0 && slide.startsWith("#model?clip=Walking&clip_b=Running") && slide.endsWith(`deck=lecture:${first}`), slide);
        await robot.page.close();
        // A deck file beside the app (the book's copy of the lecture deck), named in the
        // link the app starts with: fetched, then opened at its slide.
        const beside = await openApp(browser, base, "pipeline?deck=../decks/lecture.txt:3");
        const third = decodeURIComponent(await beside.page.evaluate(() => location.hash));
        check("a deck file beside the app opens at its slide from a link", beside.problems.length === 0 && third.startsWith("#hierarchy?focus=viewport"), `${third}; ${beside.problems.join("; ")}`);
        await beside.page.close();
        // The same deck named in the address bar after the app started (a link pasted, a
        // deck of links clicked): fetched then, and opened at its slide.
        const later = await openApp(browser, base, "grid");
        await later.page.evaluate(() => { location.hash = "#pipeline?deck=../decks/lecture.txt:3"; });
        const opened = await later.page.waitForFunction(() => decodeURIComponent(location.hash).startsWith("#hierarchy?focus=viewport"), null, { timeout: 15000 })
          .then(() => true).catch(() => false);
        const laterHash = decodeURIComponent(await later.page.evaluate(() => location.hash));
        check("a deck file named in the address bar after the start opens at its slide", opened && later.problems.length === 0, `${laterHash}; ${later.problems.join("; ")}`);
        await later.page.close();
      }

      // A click inside the app writes the fragment; the back button goes back.
      {
        const next = slugs[slugs.indexOf("xray") + 1];
        const { page } = await openApp(browser, base, "xray");
        await page.mouse.click(113, 15); // the Next button
        const moved = await page.waitForFunction((n) => location.hash.startsWith(`#${n}`), next, { timeout: 10000 }).then(() => true).catch(() => false);
        check(`a click on Next writes #${next} to the address bar`, moved, await page.evaluate(() => location.hash));
        await page.goBack();
        await page.waitForTimeout(1000);
        check("the back button returns to xray", (await page.evaluate(() => location.hash)).startsWith("#xray"));
        await page.evaluate(() => { location.hash = "grid?angle=0.5"; });
        await page.waitForTimeout(1000);
        const shot = meshBox(region(await page.screenshot(), [0.55, 0.05, 1, 0.92]));
        check("changing the fragment switches page and state", shot.n > 100, `${shot.n} purple pixels`);
        await page.close();
      }

      // State persists in the browser's storage: leave the page, come back with no fragment.
      {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(`${base}/app/index.html#grid?angle=0.5&vertex=3`);
        await page.waitForFunction(() => document.getElementById("status")?.hidden, null, { timeout: 90000 });
        await page.waitForTimeout(1000);
        await page.goto("about:blank");
        await page.goto(`${base}/app/index.html`);
        await page.waitForFunction(() => document.getElementById("status")?.hidden, null, { timeout: 90000 });
        await page.waitForTimeout(1000);
        const hash = await page.evaluate(() => location.hash);
        check("the browser remembers the last page and its state", hash === "#grid?angle=0.5&vertex=3", hash);
        await context.close();
      }

      // A reader whose system asks for less motion (prefers-reduced-motion): the grid's
      // chain opens still; without the setting the same link moves.
      {
        const moved = {};
        for (const reducedMotion of ["reduce", "no-preference"]) {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion });
          const page = await context.newPage();
          await page.goto(`${base}/app/index.html#grid`);
          await page.waitForFunction(() => document.getElementById("status")?.hidden, null, { timeout: 90000 });
          await page.waitForTimeout(1000);
          const before = region(await page.screenshot(), [0.6, 0.1, 0.98, 0.85]);
          await page.waitForTimeout(800);
          const after = region(await page.screenshot(), [0.6, 0.1, 0.98, 0.85]);
          moved[reducedMotion] = pixelsDiffering(before, after);
          await context.close();
        }
        check("with prefers-reduced-motion the grid opens still, and moves without it",
          moved.reduce === 0 && moved["no-preference"] > 100,
          `${moved.reduce} pixels changed with it, ${moved["no-preference"]} without`);
      }

      // Storage that refuses every write (full, or blocked in a private window): the app
      // still starts and draws the link.
      {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addInitScript(() => {
          Storage.prototype.setItem = function () {
            throw new DOMException("the storage is full", "QuotaExceededError");
          };
        });
        const page = await context.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
        await page.goto(`${base}/app/index.html#grid?angle=0.5`);
        const started = await page.waitForFunction(() => document.getElementById("status")?.hidden, null, { timeout: 90000 })
          .then(() => true).catch(() => false);
        await page.waitForTimeout(1500);
        const shot = meshBox(region(await page.screenshot(), [0.55, 0.05, 1, 0.92]));
        check("with storage that refuses every write the app still draws", started && shot.n > 100 && problems.length === 0, `${shot.n} purple pixels; ${problems.join("; ")}`);
        await context.close();
      }

      // A stored state that is corrupt (cut, garbled, or from an older grammar): the app
      // starts on the pages' defaults, says what it could not read, and draws.
      {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addInitScript(() => {
          if (!sessionStorage.getItem("corrupted")) {
            sessionStorage.setItem("corrupted", "1");
            localStorage.setItem("skinlab", "current grid?angle=\u0000\npage nowhere?x=1\nsplit banana\nzoom 1e39 nan\npage gr");
          }
        });
        const page = await context.newPage();
        const problems = [];
        page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
        await page.goto(`${base}/app/index.html`);
        const started = await page.waitForFunction(() => document.getElementById("status")?.hidden, null, { timeout: 90000 })
          .then(() => true).catch(() => false);
        await page.waitForTimeout(1500);
        const colors = distinctColors(region(await page.screenshot(), [0.62, 0.1, 0.98, 0.85]));
        const hash = decodeURIComponent(await page.evaluate(() => location.hash));
        check("a corrupt stored state still starts the app and draws", started && colors > 8 && problems.length === 0 && hash.length > 1,
          `${colors} colours; ${hash}; ${problems.join("; ")}`);
        await context.close();
      }

      // A bad fragment: the app still starts, with a notice instead of a blank page.
      {
        const { page, problems, firstFrameMs } = await openApp(browser, base, "nowhere?x=1");
        check("a bad fragment still shows the app", firstFrameMs !== null && problems.length === 0, problems.join("; "));
        await page.close();
      }

      // A book chapter with the app embedded.
      for (const slug of slugs) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        // The book is read offline: nothing may be fetched from the network.
        const fetched = [];
        page.on("requestfailed", (r) => fetched.push(r.url()));
        page.on("request", (r) => { if (!r.url().startsWith(base)) fetched.push(r.url()); });
        await page.goto(`${base}/${slug}.html`);
        const frame = await page.waitForSelector("iframe.skinlab-live", { timeout: 30000 }).then((e) => e.contentFrame());
        await frame.waitForFunction(() => document.getElementById("status")?.hidden, null, { timeout: 90000 }).catch(() => null);
        await page.waitForTimeout(1500);
        const iframe = await page.$("iframe.skinlab-live");
        await iframe.scrollIntoViewIfNeeded();
        const colors = distinctColors(region(await iframe.screenshot(), [0.5, 0.1, 0.98, 0.9]));
        check(`book chapter ${slug}.html shows its live page`, colors > 8, `${colors} colours`);
        check(`book chapter ${slug}.html fetches nothing from outside`, fetched.length === 0, fetched.join(", "));
        // A reader scrolling down the chapter with the wheel over the live view moves on
        // through the chapter; the view does not zoom (Ctrl + wheel does that).
        const box = await iframe.boundingBox();
        const before = await page.evaluate(() => scrollY);
        await page.mouse.move(box.x + box.width / 2, box.y + Math.min(200, box.height / 3));
        for (let i = 0; i < 3; i++) {
          await page.mouse.wheel(0, 150);
          await page.waitForTimeout(200);
        }
        await page.waitForTimeout(500);
        const after = await page.evaluate(() => scrollY);
        check(`book chapter ${slug}.html: the wheel over the live view scrolls the chapter`, after > before + 100,
          `${Math.round(before)} -> ${Math.round(after)} px`);
        await page.close();
      }
    }

    // Every kind of screen: densities, a tablet and a phone with touch (screens.cjs).
    await screens(browser, base, check, path.join(__dirname, "..", "..", "target", "screens"));
  } finally {
    await browser.close();
    server.close();
    if (emptyAppServer) emptyAppServer.close();
  }
  const median = (values) => {
    const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
    return sorted.length ? Math.round(sorted[Math.floor(sorted.length / 2)]) : null;
  };
  // Each phase's median over the loads: where a first visit's time goes.
  const phaseMedians = (rows) => rows[0].map(([name], i) => {
    const ms = median(rows.map((row) => row[i][1]));
    return ms === null ? `${name} -` : `${name} ${ms} ms`;
  }).join(", ");
  if (firstFrames.length) {
    console.log(`time to first frame: median ${median(firstFrames)} ms over ${firstFrames.length} loads`);
  }
  if (startPhaseRows.length) {
    console.log(`start phases (median over ${startPhaseRows.length} loads): ${phaseMedians(startPhaseRows)}`);
  }
  if (emptyFirstFrames.length) {
    // What any eframe app takes here today, and what is the app's own.
    const [app, empty] = [median(firstFrames), median(emptyFirstFrames)];
    console.log(`an empty eframe app's first frame, loaded beside each: median ${empty} ms over ${emptyFirstFrames.length} loads; the app's own part: ${app - empty} ms`);
  }
  if (emptyPhaseRows.length) {
    console.log(`the empty app's start phases (median over ${emptyPhaseRows.length} loads): ${phaseMedians(emptyPhaseRows)}`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.error(e); console.log(`${passed} passed, ${failed + 1} failed`); process.exit(1); });
