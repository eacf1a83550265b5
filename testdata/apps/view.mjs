// The review view (ui://grove/review) in headless Chromium. The TypeScript
// SDK client starts grove declaring the MCP Apps extension, checks that
// git_show links to the view, reads it, and calls git_show on a generated
// commit of 40 files and 3,000 changed lines (one file named like markup,
// one line of markup). A page holds the view in a sandboxed iframe (srcdoc,
// allow-scripts only, as hosts do); ext-apps' AppBridge, in node, is its
// host, over postMessage relayed through puppeteer. Checks: every file and
// every changed line is rendered, markup stays text, the side-by-side view
// and the keys work, no network request, no console error. It reports how
// long rendering took (the view's own measure and the host's).
//
// Usage: node view.mjs GROVE_BINARY EMPTY_DIR CHROMIUM
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import puppeteer from "puppeteer-core";

const [grove, root, chromium] = process.argv.slice(2);
const fail = (msg) => { console.error("FAIL:", msg); process.exit(1); };
const ok = (msg) => console.log("ok  ", msg);
if (!grove || !root || !chromium) fail("usage: node view.mjs GROVE_BINARY EMPTY_DIR CHROMIUM");
const env = {
  PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C", TZ: "UTC",
  GIT_AUTHOR_NAME: "Ann Author", GIT_AUTHOR_EMAIL: "ann@example.com",
  GIT_COMMITTER_NAME: "Cid Committer", GIT_COMMITTER_EMAIL: "cid@example.com",
};

// repository commits 40 files of 60 lines, then changes each: 25 lines
// replaced and 25 appended, 75 changed lines a file, 3,000 in all.
const markupName = "<img src=x onerror=alert(1)>.txt";
function repository(dir) {
  const git = (...args) => execFileSync("git", args, { cwd: dir, env });
  git("init", "-q", "-b", "main");
  const name = (i) => (i === 7 ? markupName : `pkg${i % 5}/file${String(i).padStart(2, "0")}.txt`);
  const lines = (i, from, n, tag) => Array.from({ length: n }, (_, k) => `${tag} ${i}.${from + k}`);
  for (let i = 0; i < 40; i++) {
    mkdirSync(join(dir, name(i), ".."), { recursive: true });
    writeFileSync(join(dir, name(i)), lines(i, 0, 60, "old").join("\n") + "\n");
  }
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  for (let i = 0; i < 40; i++) {
    const l = lines(i, 0, 60, "old");
    for (let k = 0; k < 25; k++) l[2 * k + 5] = `new ${i}.${k}`;
    if (i === 3) l[5] = "<script>alert(1)</script>";
    writeFileSync(join(dir, name(i)), [...l, ...lines(i, 60, 25, "add")].join("\n") + "\n");
  }
  git("commit", "-q", "-am", "change forty files");
}

repository(root);
const client = new Client({ name: "apps-test", version: "1" }, {
  capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
});
await client.connect(new StdioClientTransport({ command: grove, args: ["--root", root], env, stderr: "ignore" }));
const tools = (await client.listTools()).tools;
for (const name of ["git_show", "git_diff"]) {
  const uri = tools.find((t) => t.name === name)?._meta?.ui?.resourceUri;
  if (uri !== "ui://grove/review") fail(`${name} _meta.ui.resourceUri = ${uri}`);
}
const view = (await client.readResource({ uri: "ui://grove/review" })).contents[0];
if (view.mimeType !== "text/html;profile=mcp-app" || !view.text.startsWith("<!doctype html>")) fail(`the view: ${view.mimeType}`);
ok(`git_show and git_diff link to ui://grove/review; the view is ${view.text.length} bytes`);
const result = await client.callTool({ name: "git_show", arguments: { revision: "HEAD" } });
const files = result.structuredContent?.files ?? [];
const added = files.reduce((n, f) => n + f.added, 0), deleted = files.reduce((n, f) => n + f.deleted, 0);
if (result.isError || files.length !== 40 || added + deleted !== 3000 || result.structuredContent.truncated) {
  fail(`git_show: ${files.length} files, +${added} -${deleted}, truncated ${result.structuredContent?.truncated}`);
}
ok(`git_show HEAD: 40 files, +${added} -${deleted}, patch ${result.structuredContent.patch.length} bytes`);

const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  const requests = [], errors = [];
  page.on("request", (r) => { if (!/^(about|data):/.test(r.url())) requests.push(r.url()); });
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));

  // The host page relays the view's messages to node, where the bridge is.
  const bridge = new AppBridge(null, { name: "grove-apps-test", version: "1" }, {});
  let toView;
  const transport = {
    async start() {}, async close() {},
    async send(msg) { await toView(msg); },
  };
  await page.exposeFunction("toHost", (msg) => transport.onmessage?.(msg));
  await page.setContent(`<!doctype html><body style="margin:0"><iframe id="v" sandbox="allow-scripts" style="width:1200px;height:900px;border:0"></iframe>
    <script>addEventListener("message", (e) => { if (e.source === document.getElementById("v").contentWindow) window.toHost(e.data); });</script></body>`);
  toView = (msg) => page.evaluate((m) => document.getElementById("v").contentWindow.postMessage(m, "*"), msg);
  const initialized = new Promise((r) => { bridge.oninitialized = r; });
  const sizes = [];
  bridge.onsizechange = (p) => sizes.push(p);
  await bridge.connect(transport);
  await page.evaluate((html) => { document.getElementById("v").srcdoc = html; }, view.text);
  await Promise.race([initialized, new Promise((_, rej) => setTimeout(() => rej(new Error("no ui/initialize")), 10_000))])
    .catch((e) => fail(`${e.message}; console: ${errors.join(" | ")}`));
  const frame = page.frames().find((f) => f !== page.mainFrame());
  await bridge.sendToolInput({ arguments: { revision: "HEAD" } });
  const t0 = performance.now();
  await bridge.sendToolResult(result);
  await frame.waitForFunction(() => document.body.dataset.files === "40", { timeout: 10_000 });
  const hostMs = performance.now() - t0;
  const viewMs = await frame.evaluate(() => Number(document.body.dataset.renderMs));

  const seen = await frame.evaluate(() => ({
    sections: [...document.querySelectorAll("section.file h2 .path")].map((e) => e.textContent),
    listed: document.querySelectorAll("#files li").length,
    adds: document.querySelectorAll("tr.a").length, dels: document.querySelectorAll("tr.d").length,
    hunks: document.querySelectorAll(".hunk").length, imgs: document.querySelectorAll("img").length,
    scripts: document.scripts.length,
    markupLine: [...document.querySelectorAll("tr.a td.t")].some((td) => td.textContent === "+<script>alert(1)</script>"),
  }));
  const want = files.map((f) => f.path);
  if (JSON.stringify(seen.sections) !== JSON.stringify(want) || seen.listed !== 40) fail(`files rendered: ${seen.listed} listed, ${JSON.stringify(seen.sections).slice(0, 300)}`);
  if (seen.adds !== added || seen.dels !== deleted) fail(`lines rendered +${seen.adds} -${seen.dels}, want +${added} -${deleted}`);
  if (!seen.sections.includes(markupName) || !seen.markupLine || seen.scripts !== 1 || seen.imgs !== 0) fail(`markup was not kept as text: ${JSON.stringify(seen)}`);
  ok(`inline view: 40 files, ${seen.hunks} hunks, +${seen.adds} -${seen.dels} lines; a file named ${markupName} and a <script> line stay text`);

  await frame.click("#split");
  const split = await frame.evaluate(() => ({ view: document.body.dataset.view, tables: document.querySelectorAll("table.split").length,
    left: document.querySelectorAll("td.t.d").length, right: document.querySelectorAll("td.t.a").length }));
  if (split.view !== "split" || split.tables !== seen.hunks || split.left !== deleted || split.right !== added) fail(`side by side: ${JSON.stringify(split)}`);
  await frame.focus("body");
  await page.keyboard.press("v");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("n");
  await page.keyboard.press("o");
  const keys = await frame.evaluate(() => ({ view: document.body.dataset.view,
    file: document.querySelector("section.file.current h2 .path")?.textContent,
    collapsed: document.querySelectorAll(".hunk.collapsed").length, current: document.querySelector(".hunk.current.collapsed") !== null }));
  // j j: the second file; n: the next hunk, the third file's one (each file has one hunk here); o folds it.
  if (keys.view !== "inline" || keys.file !== want[2] || keys.collapsed !== 1 || !keys.current) fail(`keys v j j n o: ${JSON.stringify(keys)}`);
  await frame.click(".hunk.collapsed > .hh");
  if (await frame.evaluate(() => document.querySelectorAll(".hunk.collapsed").length) !== 0) fail("clicking a collapsed hunk's header did not expand it");
  await frame.click("#fold");
  if (await frame.evaluate(() => document.querySelectorAll(".hunk.collapsed").length) !== seen.hunks) fail("collapse all");
  ok("side-by-side view (button), keys v j n o, hunk headers and collapse all");

  if (!sizes.length) fail("the view never sent ui/notifications/size-changed");
  if (requests.length) fail(`network requests: ${requests.join(", ")}`);
  if (errors.length) fail(`console errors: ${errors.join(" | ")}`);
  ok(`no network request, no console error, ${sizes.length} size-changed notifications`);
  // A measurement, reported; the bound only catches a view that hangs (CI machines are shared and slow).
  console.log(`render: ${viewMs.toFixed(1)} ms in the view (parse and DOM), ${hostMs.toFixed(0)} ms from sendToolResult to 40 files in the DOM (host side, through CDP)`);
  if (hostMs > 30_000) fail(`rendering took ${hostMs.toFixed(0)} ms (bound: 30 s)`);
} finally {
  await browser.close();
  await client.close();
}
console.log("apps: all checks passed");
