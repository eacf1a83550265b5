// Interop check of grove behind a standard reverse proxy (proxy.sh starts
// nginx, ending TLS, in front of two grove instances named a and b): the
// TypeScript SDK client's legacy Streamable HTTP sessions each stay on the
// instance that made them (nginx routes by the instance name that starts
// the Mcp-Session-Id), HTTP+SSE sessions too (by the sessionid of their
// POST URL), WebSocket sessions ride one connection, and modern requests,
// which stand alone, are spread over both instances. nginx names the
// instance that answered in an X-Upstream header.
//
// Usage: node proxy.mjs BASE_URL TOKEN (BASE_URL like https://127.0.0.1:8443)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";

const fail = (msg) => { console.error("FAIL:", msg); process.exit(1); };
const ok = (msg) => console.log("ok  ", msg);
const [base, token] = process.argv.slice(2);
if (!base || !token) { console.error("usage: node proxy.mjs BASE_URL TOKEN"); process.exit(2); }
const requestInit = { headers: { Authorization: `Bearer ${token}` } };

// recording is a fetch that notes which upstream answered each request.
const recording = (seen) => async (url, init) => {
  const res = await fetch(url, init);
  seen.add(res.headers.get("x-upstream"));
  return res;
};

async function session(kind) {
  const seen = new Set();
  const client = new Client({ name: "interop-proxy", version: "1" });
  const transport = kind === "sse"
    ? new SSEClientTransport(new URL(`${base}/sse`), { requestInit, fetch: recording(seen) })
    : new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit, fetch: recording(seen) });
  await client.connect(transport);
  for (let i = 0; i < 3; i++) {
    const tools = (await client.listTools()).tools;
    if (!tools.some((t) => t.name === "read_file")) fail(`${kind} tools/list through the proxy`);
    const r = await client.callTool({ name: "list_roots", arguments: {} });
    if (r.isError) fail(`${kind} list_roots through the proxy: ${JSON.stringify(r)}`);
  }
  seen.delete(null);
  return { client, seen };
}

// Legacy Streamable HTTP: each session pinned, the sessions spread.
const upstreams = new Set();
const clients = [];
for (let i = 0; i < 6; i++) {
  const { client, seen } = await session("http");
  if (seen.size !== 1) fail(`a legacy session's requests reached ${[...seen]}`);
  upstreams.add([...seen][0]);
  clients.push(client);
}
if (upstreams.size !== 2) fail(`six legacy sessions all went to ${[...upstreams]}`);
ok(`6 legacy Streamable HTTP sessions over TLS through nginx, each pinned to its instance, both used: ${[...upstreams].join(", ")}`);

const sse = await session("sse");
if (sse.seen.size !== 1) fail(`an SSE session's requests reached ${[...sse.seen]}`);
clients.push(sse.client);
ok(`an HTTP+SSE session through nginx, pinned to ${[...sse.seen][0]}`);

if (typeof globalThis.WebSocket === "undefined") globalThis.WebSocket = (await import("ws")).WebSocket;
const ws = new URL(`${base.replace(/^http/, "ws")}/ws`);
ws.searchParams.set("access_token", token);
const wsClient = new Client({ name: "interop-proxy", version: "1" });
await wsClient.connect(new WebSocketClientTransport(ws));
if (!(await wsClient.listTools()).tools.some((t) => t.name === "read_file")) fail("tools/list over WebSocket through the proxy");
clients.push(wsClient);
ok("a WebSocket session (wss) through nginx");

// Modern requests: no session, so any instance serves them.
const modern = new Set();
for (let i = 0; i < 8; i++) {
  const res = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...requestInit.headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover" },
    body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "server/discover", params: { _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "interop-proxy", version: "1" } } } }),
  });
  const body = await res.text();
  if (res.status !== 200 || !body.includes("supportedVersions")) fail(`modern server/discover: ${res.status} ${body.slice(0, 300)}`);
  modern.add(res.headers.get("x-upstream"));
}
if (modern.size !== 2) fail(`modern requests all went to ${[...modern]}`);
ok(`8 modern requests spread over ${[...modern].join(", ")}`);

const res = await fetch(`${base}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
if (res.status !== 401) fail(`no token through the proxy: ${res.status}`);
ok("no token through the proxy: 401");
for (const c of clients) await c.close();
console.log("interop (proxy): all checks passed");
process.exit(0);
