// Interop check: the official TypeScript SDK client drives a grove binary end
// to end: initialize, tools, resources (list, read, subscribe with a real file
// change), a git tool on a repository with history, prompts, completion, and a
// roots change that must narrow what grove lets the client reach.
//
// Usage: node client.mjs stdio GROVE_BINARY ROOT
// ROOT is an empty directory; the client makes a git repository in it (with
// the git CLI) and writes files there. Exits non-zero on the first failure.
//
// Transports: checks(transport, root) below does not know which transport it
// drives. To add one (grove --http), add an entry to `transports` that makes
// an unconnected transport from its command-line arguments (the last is
// always ROOT), e.g. with StreamableHTTPClientTransport from
// "@modelcontextprotocol/sdk/client/streamableHttp.js":
//
//	http: (url, token, root) => new StreamableHTTPClientTransport(new URL(url),
//	  { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
//
// and run `node client.mjs http URL TOKEN ROOT` against a grove started with
// --root ROOT (run.sh starts it); checks() makes the repository in ROOT.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  ListRootsRequestSchema, ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gitEnv, media, mediaBlocks, pngBase64, repository, timeoutMs, waitFor as waitUntil } from "./fixture.mjs";

const fail = (msg) => { console.error("FAIL:", msg); process.exit(1); };
const ok = (msg) => console.log("ok  ", msg);
const waitFor = (what, pred) => waitUntil(what, pred, fail);

const transports = {
  stdio: (bin, root) => new StdioClientTransport({
    command: bin, args: ["--root", root], stderr: "ignore",
    env: { PATH: process.env.PATH, ...gitEnv },
  }),
};

async function checks(transport, root) {
  repository(root);
  // The client's roots: first the whole root, later only root/sub.
  let clientRoots = [{ uri: pathToFileURL(root).href, name: "root" }];
  const client = new Client({ name: "interop", version: "1" }, { capabilities: { roots: { listChanged: true } } });
  let rootsAsked = 0;
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    rootsAsked++;
    return { roots: clientRoots };
  });
  const updated = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updated.push(n.params.uri));
  await client.connect(transport);
  ok(`initialize: ${client.getServerVersion().name} ${client.getServerVersion().version}`);

  const tools = (await client.listTools()).tools.map((t) => t.name);
  for (const name of ["list_roots", "read_file", "grep", "git_status", "git_log"]) {
    if (!tools.includes(name)) fail(`tool ${name} missing from tools/list`);
  }
  ok(`tools/list: ${tools.length} tools`);

  const roots = await client.callTool({ name: "list_roots", arguments: {} });
  if (roots.isError || !JSON.stringify(roots.structuredContent).includes(root)) fail(`list_roots: ${JSON.stringify(roots)}`);
  ok("tools/call list_roots with structuredContent");

  const file = join(root, "hello.txt");
  writeFileSync(file, "hello\n");
  const uri = pathToFileURL(file).href;
  const read = await client.readResource({ uri });
  if (read.contents[0].text !== "hello\n") fail(`resources/read: ${JSON.stringify(read)}`);
  ok("resources/read text");

  await largeAnswers(client, root);
  await mediaFiles(client, root);

  const list = await client.listResources();
  if (!list.resources.some((r) => r.uri === uri)) fail(`resources/list lacks ${uri}`);
  ok(`resources/list: ${list.resources.length} resources`);

  try {
    await client.readResource({ uri: "file:///etc/passwd" });
    fail("resources/read outside the root succeeded");
  } catch (e) { ok(`resources/read outside refused: ${e.code}`); }

  await client.subscribeResource({ uri });
  writeFileSync(file, "changed\n");
  await waitFor("notifications/resources/updated after a write", () => updated.includes(uri));
  ok("resources/subscribe, a real write, then notifications/resources/updated");

  await gitTools(client);
  await prompts(client, file);

  const comp = await client.complete({ ref: { type: "ref/resource", uri: "file:///{+path}" }, argument: { name: "path", value: root + "/he" } });
  if (!comp.completion.values.some((v) => v.includes("hello.txt"))) fail(`completion: ${JSON.stringify(comp)}`);
  ok("completion/complete of a path");

  // Roots change: the client narrows its roots to root/sub and says so;
  // grove asks again and from then on reaches only root/sub.
  const asked = rootsAsked;
  clientRoots = [{ uri: pathToFileURL(join(root, "sub")).href, name: "sub" }];
  await client.sendRootsListChanged();
  await waitFor("list_roots to show only root/sub after roots/list_changed", async () => {
    const r = await client.callTool({ name: "list_roots", arguments: {} });
    const paths = (r.structuredContent?.roots ?? []).map((x) => x.path);
    return paths.length === 1 && paths[0] === join(root, "sub");
  });
  if (rootsAsked === asked) fail("grove never asked roots/list again after roots/list_changed");
  const inside = await client.callTool({ name: "read_file", arguments: { path: join(root, "sub", "inner.txt") } });
  if (inside.isError) fail(`read_file inside the narrowed root: ${JSON.stringify(inside)}`);
  const outside = await client.callTool({ name: "read_file", arguments: { path: file } });
  if (!outside.isError) fail(`read_file outside the narrowed root succeeded: ${JSON.stringify(outside).slice(0, 300)}`);
  const grep = await client.callTool({ name: "grep", arguments: { pattern: "changed|inner", path: join(root, "sub") } });
  if (grep.isError || JSON.stringify(grep.content).includes("hello.txt")) fail(`grep after narrowing: ${JSON.stringify(grep)}`);
  ok("roots/list_changed narrowed the scope to root/sub (list_roots, read_file in and out, grep)");

  await client.close();
}

// largeAnswers: large answers go around the Go SDK's encoder
// (server/carry.go): a 300 KiB file with quotes, tabs, non-ASCII and U+2028,
// by resource and by tool, and a 500-entry directory's structured listing.
async function largeAnswers(client, root) {
  const bigText = Array.from({ length: 6000 }, (_, i) => `line ${i}: "quoted" \\ tab\t<tag> é 🎉 \u2028\n`).join("");
  const big = join(root, "big.txt");
  writeFileSync(big, bigText);
  const bigRead = await client.readResource({ uri: pathToFileURL(big).href });
  if (bigRead.contents[0].text !== bigText) fail(`resources/read of a large file: ${bigRead.contents[0].text?.length} chars`);
  const bigTool = await client.callTool({ name: "read_file", arguments: { path: big } });
  if (bigTool.isError || !bigTool.content[0].text.endsWith("\n" + bigText)) fail("read_file of a large file differs");
  mkdirSync(join(root, "many"));
  for (let i = 0; i < 500; i++) writeFileSync(join(root, "many", `f${i}.txt`), "x");
  const many = await client.callTool({ name: "list_directory", arguments: { path: join(root, "many") } });
  if (many.isError || many.structuredContent.entries.length !== 500) fail(`list_directory of 500: ${JSON.stringify(many).slice(0, 300)}`);
  ok("large answers (resources/read, read_file, list_directory structuredContent)");
}

// mediaFiles: read_file and read_files send images and audio as content
// blocks, which the SDK client validates against its result schema.
async function mediaFiles(client, root) {
  media(root);
  const one = await client.callTool({ name: "read_file", arguments: { path: "docs/screenshot.png" } });
  const problem = one.isError ? JSON.stringify(one) : mediaBlocks(one, ["image"]);
  if (problem) fail(`read_file of a PNG: ${problem}`);
  if (one.structuredContent.media !== "image" || one.structuredContent.mime_type !== "image/png") {
    fail(`read_file of a PNG: structuredContent ${JSON.stringify(one.structuredContent)}`);
  }
  const several = await client.callTool({ name: "read_files", arguments: { paths: ["docs/beep.wav", "hello.txt", "docs/screenshot.png"] } });
  const problems = several.isError ? JSON.stringify(several) : mediaBlocks(several, ["audio", "image"]);
  if (problems) fail(`read_files of a WAV, a text and a PNG: ${problems}`);
  // A 20 MiB PNG (the fixture's header, then zeros) is described, not sent.
  const huge = join(root, "docs", "huge.png");
  writeFileSync(huge, Buffer.from(pngBase64, "base64").subarray(0, 33));
  truncateSync(huge, 20 << 20);
  const big = await client.callTool({ name: "read_file", arguments: { path: huge } });
  if (big.isError || big.content.length !== 1 || !/image file, 20 MiB, image\/png; not shown/.test(big.content[0].text)) {
    fail(`read_file of a 20 MiB PNG: ${JSON.stringify(big).slice(0, 300)}`);
  }
  ok("read_file and read_files send a PNG and a WAV as image and audio blocks; a 20 MiB PNG is described");
}

async function gitTools(client) {
  const text = (r) => r.content.map((c) => c.text ?? "").join("\n");
  const log = await client.callTool({ name: "git_log", arguments: {} });
  if (log.isError || !/second commit[\s\S]*first commit/.test(text(log))) fail(`git_log: ${JSON.stringify(log)}`);
  const status = await client.callTool({ name: "git_status", arguments: {} });
  if (status.isError || !/ M app\.txt/.test(text(status)) || !/\?\? hello\.txt/.test(text(status))) {
    fail(`git_status: ${JSON.stringify(status)}`);
  }
  const diff = await client.callTool({ name: "git_diff", arguments: {} });
  if (diff.isError || !text(diff).includes("+version three, not committed")) fail(`git_diff: ${JSON.stringify(diff)}`);
  ok("git_log (two commits), git_status (modified and untracked), git_diff (the edit)");
}

async function prompts(client, file) {
  const names = (await client.listPrompts()).prompts.map((p) => p.name);
  for (const name of ["review_changes", "review_commit", "review_file", "commit_message", "explain_history"]) {
    if (!names.includes(name)) fail(`prompt ${name} missing`);
  }
  ok("prompts/list");
  const reviewFile = await client.getPrompt({ name: "review_file", arguments: { path: file } });
  if (!JSON.stringify(reviewFile.messages).includes("changed")) fail(`review_file: ${JSON.stringify(reviewFile)}`);
  const review = await client.getPrompt({ name: "review_changes", arguments: {} });
  if (!JSON.stringify(review.messages).includes("version three, not committed")) fail(`review_changes: ${JSON.stringify(review).slice(0, 500)}`);
  ok("prompts/get review_file and review_changes embed the file and the diff");
}

const [kind, ...args] = process.argv.slice(2);
if (!transports[kind] || args.length < 2) {
  console.error(`usage: node client.mjs ${Object.keys(transports).join("|")} ARGS... ROOT`);
  process.exit(2);
}
const root = args[args.length - 1];
await checks(transports[kind](...args), root);
console.log(`interop (${kind}): all checks passed`);
