// Loads a wpp HTML report from a file in headless Chromium and prints, as one JSON
// object, what the page shows: every console error, failed or network request, the
// summary's figures, the top hot path's drawing, the flame graph's root (in its own
// frame) and whether a click zooms it, the time to first paint; and saves a screenshot.
//
// node check.mjs PAGE.html SHOT.png
import { chromium } from "playwright-core";

const [, , file, shot] = process.argv;
const browser = await chromium.launch({
  executablePath: process.env.WPP_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  const requests = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`page error: ${e}`));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
  page.on("request", (r) => requests.push(r.url().slice(0, 40)));
  const started = Date.now();
  await page.goto("file://" + file, { waitUntil: "load" });
  const loadMs = Date.now() - started;
  const paint = await page.evaluate(() => {
    const e = performance.getEntriesByName("first-contentful-paint")[0];
    return e ? e.startTime : null;
  });
  const summary = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll("[data-stat]")].map((e) => [e.dataset.stat, e.dataset.value])));
  const top = await page.evaluate(() => {
    const item = document.querySelector('.hot-path[data-rank="0"]');
    if (!item) return null;
    const d = item.querySelector(".drawing");
    const box = (g) => g.querySelector("path, polygon");
    return {
      function: Number(item.dataset.function),
      path: Number(item.dataset.path),
      drawing: d.id,
      svg: d.querySelector("svg") !== null,
      highlighted: [...d.querySelectorAll("g.node.onpath")].map((g) => g.id),
      highlightedFill: [...d.querySelectorAll("g.node.onpath")].map((g) => box(g)?.getAttribute("fill")),
      otherFill: [...d.querySelectorAll("g.node:not(.onpath)")].map((g) => box(g)?.getAttribute("fill")),
      pathEdges: d.querySelectorAll("g.edge.onpath").length,
    };
  });
  let flame = null;
  const frame = page.frames().find((f) => f.url().startsWith("data:image/svg+xml"));
  if (frame) {
    flame = await frame.evaluate(() => {
      const frames = document.getElementById("frames");
      const root = [...frames.children].find((g) => (g.querySelector("title")?.textContent || "").startsWith("all "));
      return {
        totalSamples: frames.getAttribute("total_samples"),
        rootTitle: root?.querySelector("title")?.textContent ?? null,
        rootWidth: root?.querySelector("rect")?.getAttribute("fg:w") ?? null,
        frames: frames.children.length,
        unzoomHidden: document.getElementById("unzoom").classList.contains("hide"),
      };
    });
    // A click on the widest frame above the root zooms to it: the reset button shows.
    const clicked = await frame.evaluate(() => {
      const frames = [...document.getElementById("frames").children];
      const widest = frames
        .filter((g) => !(g.querySelector("title")?.textContent || "").startsWith("all "))
        .sort((a, b) => Number(b.querySelector("rect").getAttribute("fg:w")) - Number(a.querySelector("rect").getAttribute("fg:w")))[0];
      if (!widest) return null;
      widest.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return widest.querySelector("title").textContent;
    });
    flame.clicked = clicked;
    flame.zoomed = await frame.evaluate(() => !document.getElementById("unzoom").classList.contains("hide"));
  }
  const links = await page.evaluate(() => {
    const all = [...document.querySelectorAll('a[href^="#"]')];
    const ids = new Map();
    for (const e of document.querySelectorAll("[id]")) ids.set(e.id, (ids.get(e.id) || 0) + 1);
    return {
      total: all.length,
      broken: all.filter((a) => !document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)))).map((a) => a.getAttribute("href")).slice(0, 10),
      duplicateIds: [...ids].filter(([, n]) => n > 1).map(([id]) => id).slice(0, 10),
    };
  });
  const tables = await page.evaluate(() => {
    const rows = (sel) => [...document.querySelectorAll(`${sel} tr`)].slice(1).map((tr) => [...tr.cells].map((c) => c.textContent.trim()));
    return {
      functions: [...document.querySelectorAll("#functions-table > tbody > tr[data-function]")].map((tr) => ({ function: Number(tr.dataset.function), pathsTo90: Number(tr.querySelector("[data-paths-to-90]").getAttribute("data-paths-to-90")) })),
      pppFunctions: rows("#ppp-functions"),
      pppInteresting: rows("#ppp-interesting").length,
      pppResidual: rows("#ppp-residual").length,
      twppFunctions: rows("#twpp-functions"),
      dataflowPoints: rows("#dataflow-points"),
      dataflowDifferences: rows("#dataflow-differences"),
      depsLoads: rows("#deps-loads"),
      drawings: document.querySelectorAll(".drawing svg").length,
      flameFrame: document.getElementById("flame-frame") !== null,
    };
  });
  await page.screenshot({ path: shot });
  const external = requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"));
  console.log(JSON.stringify({ errors, external, loadMs, paint, summary, top, flame, links, tables }));
} finally {
  await browser.close();
}
