// Interop check over HTTP: the official TypeScript SDK client drives
// `grove --http` over one of its HTTP transports (the third argument):
// "http", StreamableHTTPClientTransport at /mcp (the default); "sse",
// SSEClientTransport at /sse (2024-11-05 HTTP+SSE); "ws",
// WebSocketClientTransport at /ws. Then: initialize, tools,
// resources (list, read, subscribe with a real file change), a git tool, a
// prompt, a roots change that narrows what the session reaches, a second
// session that keeps its own roots, a request without the token (401), and
// SIGTERM (grove exits 0).
//
// Usage: node http.mjs GROVE_BINARY ROOT [http|sse|ws]
// ROOT is an empty directory; the script makes a git repository in it (with
// the git CLI). Exits non-zero on the first failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";
import { ListRootsRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gitEnv, repository, timeoutMs, waitFor as waitUntil } from "./fixture.mjs";
import { randomBytes } from "node:crypto";

const fail = (msg) => { console.error("FAIL:", msg); grove?.kill("SIGKILL"); process.exit(1); };
const ok = (msg) => console.log("ok  ", msg);
const waitFor = (what, pred) => waitUntil(what, pred, fail);

// start runs grove --http on a free loopback port and resolves with its URL,
// read from the client configuration it prints on stderr.
let grove;
function start(bin, root, token) {
  // GROVE_HTTP_ARGS adds flags (http.sh: the TLS certificate and key).
  const extra = (process.env.GROVE_HTTP_ARGS ?? "").split(" ").filter(Boolean);
  grove = spawn(bin, ["--http", "127.0.0.1:0", "--root", root, ...extra], {
    env: { PATH: process.env.PATH, GROVE_HTTP_TOKEN: token, ...gitEnv }, stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve) => {
    let err = "";
    const timer = setTimeout(() => fail(`grove printed no URL within ${timeoutMs} ms:\n${err}`), timeoutMs);
    grove.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/serving MCP over HTTP at (\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
}

async function connect(url, token, roots) {
  const client = new Client({ name: "interop-http", version: "1" }, { capabilities: { roots: { listChanged: true } } });
  const state = { roots, updated: [] };
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: state.roots }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => state.updated.push(n.params.uri));
  await client.connect(await transportFor(url, token));
  return { client, state };
}

// transportFor makes the client transport of the chosen kind for grove's
// /mcp URL.
async function transportFor(url, token) {
  const requestInit = { headers: { Authorization: `Bearer ${token}` } };
  switch (kind) {
    case "http":
      return new StreamableHTTPClientTransport(new URL(url), { requestInit });
    case "sse":
      return new SSEClientTransport(new URL(url.replace(/\/mcp$/, "/sse")), { requestInit });
    case "ws": {
      // The SDK's transport uses the WHATWG WebSocket, which cannot send
      // headers: the token goes in the URL (RFC 6750 section 2.3), as in a
      // client configured with a URL only. Node 20 has no global WebSocket;
      // the ws package is one.
      if (typeof globalThis.WebSocket === "undefined") globalThis.WebSocket = (await import("ws")).WebSocket;
      const ws = new URL(url.replace(/\/mcp$/, "/ws").replace(/^http/, "ws"));
      ws.searchParams.set("access_token", token);
      return new WebSocketClientTransport(ws);
    }
  }
  fail(`unknown transport ${kind}`);
}

const rootPaths = async (client) => {
  const r = await client.callTool({ name: "list_roots", arguments: {} });
  return (r.structuredContent?.roots ?? []).map((x) => x.path);
};

const [bin, root, kind = "http"] = process.argv.slice(2);
if (!bin || !root) {
  console.error("usage: node http.mjs GROVE_BINARY ROOT [http|sse|ws]");
  process.exit(2);
}
repository(root);
const token = randomBytes(24).toString("hex");
const url = await start(bin, root, token);
ok(`grove --http listening at ${url}`);

const { client, state } = await connect(url, token, [{ uri: pathToFileURL(root).href, name: "root" }]);
ok(`initialize over ${kind}${url.startsWith("https:") ? " with TLS" : ""}: ${client.getServerVersion().name}`);

const tools = (await client.listTools()).tools.map((t) => t.name);
if (!tools.includes("git_status") || !tools.includes("read_file")) fail(`tools/list: ${tools}`);
ok(`tools/list: ${tools.length} tools`);

const file = join(root, "hello.txt");
writeFileSync(file, "hello\n");
const uri = pathToFileURL(file).href;
const read = await client.readResource({ uri });
if (read.contents[0].text !== "hello\n") fail(`resources/read: ${JSON.stringify(read)}`);
const list = await client.listResources();
if (!list.resources.some((r) => r.uri === uri)) fail(`resources/list lacks ${uri}`);
ok("resources/list and resources/read");

await client.subscribeResource({ uri });
writeFileSync(file, "changed\n");
await waitFor("notifications/resources/updated after a write", () => state.updated.includes(uri));
ok("resources/subscribe, a real write, then notifications/resources/updated on the session's stream");

const status = await client.callTool({ name: "git_status", arguments: {} });
const statusText = status.content.map((c) => c.text ?? "").join("\n");
if (status.isError || !/ M app\.txt/.test(statusText) || !/\?\? hello\.txt/.test(statusText)) fail(`git_status: ${statusText}`);
ok("git_status (modified and untracked)");

const prompt = await client.getPrompt({ name: "review_file", arguments: { path: file } });
if (!JSON.stringify(prompt.messages).includes("changed")) fail(`review_file: ${JSON.stringify(prompt).slice(0, 300)}`);
ok("prompts/get review_file embeds the file");

// A second session keeps its own roots while the first narrows its own.
const other = await connect(url, token, [{ uri: pathToFileURL(root).href, name: "root" }]);
state.roots = [{ uri: pathToFileURL(join(root, "sub")).href, name: "sub" }];
await client.sendRootsListChanged();
await waitFor("list_roots to show only root/sub", async () => {
  const paths = await rootPaths(client);
  return paths.length === 1 && paths[0] === join(root, "sub");
});
const outside = await client.callTool({ name: "read_file", arguments: { path: file } });
if (!outside.isError) fail("read_file outside the narrowed root succeeded");
const otherRoots = await rootPaths(other.client);
if (otherRoots.length !== 1 || otherRoots[0] !== root) fail(`the other session's roots changed too: ${otherRoots}`);
const otherRead = await other.client.callTool({ name: "read_file", arguments: { path: file } });
if (otherRead.isError) fail("the other session lost its roots");
ok("roots/list_changed narrowed this session to root/sub; another session kept the whole root");

for (const path of ["/mcp", "/sse", "/ws"]) {
  const res = await fetch(url.replace(/\/mcp$/, path), {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  if (res.status !== 401 || !(res.headers.get("www-authenticate") ?? "").startsWith("Bearer")) fail(`no token at ${path}: ${res.status}`);
}
ok("a request without the token gets 401 with WWW-Authenticate: Bearer at /mcp, /sse and /ws");

await client.close();
await other.client.close();
const exited = new Promise((resolve) => grove.on("exit", (code) => resolve(code)));
grove.kill("SIGTERM");
const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), timeoutMs))]);
if (code !== 0) fail(`grove exited with ${code} after SIGTERM, want 0`);
ok("SIGTERM: grove exited 0");
console.log(`interop (${kind}${url.startsWith("https:") ? ", TLS" : ""}): all checks passed`);
