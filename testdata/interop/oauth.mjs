// Interop check of grove as an OAuth 2.1 resource server: the TypeScript
// SDK's own authorization server (its auth router with the demo in-memory
// provider, on loopback in this process) issues the tokens, and the SDK's
// client does the whole dance against `grove --http --http-auth-issuer`:
// 401 with resource_metadata → Protected Resource Metadata → the
// authorization server's metadata → client registration → authorization
// (the demo approves at once) → token with grove's resource indicator →
// MCP calls. Then: no token and a made-up token get 401, a token for
// another resource (audience) is refused, and a token revoked at the
// authorization server is refused on replay (grove introspects each one).
//
// Usage: node oauth.mjs GROVE_BINARY ROOT
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import express from "express";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { gitEnv, repository, timeoutMs } from "./fixture.mjs";

const fail = (msg) => { console.error("FAIL:", msg); grove?.kill("SIGKILL"); process.exit(1); };
const ok = (msg) => console.log("ok  ", msg);
let grove;

const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

const [bin, root] = process.argv.slice(2);
if (!bin || !root) { console.error("usage: node oauth.mjs GROVE_BINARY ROOT"); process.exit(2); }
repository(root);
const [asPort, grovePort] = [await freePort(), await freePort()];
const issuer = `http://127.0.0.1:${asPort}/`;
const groveURL = `http://127.0.0.1:${grovePort}/mcp`;

// The authorization server: the SDK's router and demo provider, strict
// about the resource indicator, plus the introspection endpoint the SDK's
// example adds (it answers an inactive token with 401 and active: false).
const provider = new DemoInMemoryAuthProvider((resource) => resource?.toString() === groveURL);
const app = express();
app.use(express.json());
app.use(express.urlencoded({ extended: false }));
app.use(mcpAuthRouter({ provider, issuerUrl: new URL(issuer), scopesSupported: ["grove:read", "grove:write"] }));
app.post("/introspect", async (req, res) => {
  try {
    const t = await provider.verifyAccessToken(req.body.token);
    res.json({ active: true, client_id: t.clientId, scope: t.scopes.join(" "), exp: t.expiresAt, aud: t.resource?.toString() });
  } catch {
    res.status(401).json({ active: false });
  }
});
const asServer = app.listen(asPort, "127.0.0.1");
await new Promise((r) => asServer.on("listening", r));
ok(`authorization server (TS SDK auth router, demo provider) at ${issuer}`);

grove = spawn(bin, ["--http", `127.0.0.1:${grovePort}`, "--root", root, "--http-auth-issuer", issuer,
  "--http-resource", groveURL, "--http-introspect", `${issuer}introspect`], {
  env: { PATH: process.env.PATH, ...gitEnv }, stdio: ["ignore", "ignore", "pipe"],
});
await new Promise((resolve) => {
  let err = "";
  const timer = setTimeout(() => fail(`grove did not start within ${timeoutMs} ms:\n${err}`), timeoutMs);
  grove.stderr.on("data", (d) => { err += d; if (/serving MCP over HTTP at/.test(err)) { clearTimeout(timer); resolve(); } });
  grove.on("exit", (code) => fail(`grove exited with ${code}:\n${err}`));
});
ok(`grove --http-auth-issuer at ${groveURL}`);

// The client side of the dance. The demo provider approves at once and
// redirects to redirect_uris with the code, which is read from the
// redirect instead of a browser.
class InteropProvider {
  constructor() { this.info = undefined; this.tok = undefined; this.verifier = undefined; this.code = undefined; }
  get redirectUrl() { return "http://127.0.0.1:1/callback"; }
  get clientMetadata() {
    return { client_name: "grove interop", redirect_uris: [this.redirectUrl], grant_types: ["authorization_code"],
      response_types: ["code"], token_endpoint_auth_method: "client_secret_post" };
  }
  clientInformation() { return this.info; }
  saveClientInformation(info) { this.info = info; }
  tokens() { return this.tok; }
  saveTokens(t) { this.tok = t; }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
  async redirectToAuthorization(url) {
    const res = await fetch(url, { redirect: "manual" });
    const to = res.headers.get("location");
    if (res.status !== 302 || !to) fail(`authorization: ${res.status} ${await res.text()}`);
    this.code = new URL(to).searchParams.get("code");
  }
}
const authProvider = new InteropProvider();
let client = new Client({ name: "interop-oauth", version: "1" });
let transport = new StreamableHTTPClientTransport(new URL(groveURL), { authProvider });
try {
  await client.connect(transport);
  fail("connected without signing in");
} catch (e) {
  if (!(e instanceof UnauthorizedError)) fail(`first connect: ${e}`);
}
if (!authProvider.code) fail("no authorization code after the 401");
await transport.finishAuth(authProvider.code);
const token = authProvider.tokens()?.access_token;
if (!token) fail("no access token");
ok(`401 → PRM → AS metadata → registration → authorization → token (scope "${authProvider.tokens().scope}")`);

client = new Client({ name: "interop-oauth", version: "1" });
await client.connect(new StreamableHTTPClientTransport(new URL(groveURL), { authProvider }));
const tools = (await client.listTools()).tools.map((t) => t.name);
if (!tools.includes("write_file") || !tools.includes("read_file")) fail(`tools/list: ${tools}`);
const file = join(root, "oauth.txt");
const wrote = await client.callTool({ name: "write_file", arguments: { path: file, content: "signed in\n" } });
if (wrote.isError) fail(`write_file: ${JSON.stringify(wrote)}`);
const read = await client.callTool({ name: "read_file", arguments: { path: file } });
if (read.isError || !JSON.stringify(read).includes("signed in")) fail(`read_file: ${JSON.stringify(read)}`);
ok("MCP calls with the token: tools/list, write_file, read_file");

const ping = (bearer) => fetch(groveURL, {
  method: "POST",
  headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
});
for (const [what, bearer] of [["no token", ""], ["a made-up token", "made-up-token-0123456789"]]) {
  const res = await ping(bearer);
  const challenge = res.headers.get("www-authenticate") ?? "";
  if (res.status !== 401 || !challenge.includes("resource_metadata=")) fail(`${what}: ${res.status} ${challenge}`);
}
ok("no token and a made-up token: 401 with resource_metadata");

// A token the authorization server issued for another resource.
const other = [...provider.tokens.values()].find((t) => t.token === token);
provider.tokens.set("for-another-resource", { ...other, token: "for-another-resource", resource: new URL("http://127.0.0.1:1/mcp") });
if ((await ping("for-another-resource")).status !== 401) fail("a token for another resource was accepted");
ok("a token for another resource (audience): 401");

provider.tokens.delete(token); // revoked at the authorization server
if ((await ping(token)).status !== 401) fail("a revoked token was accepted on replay");
ok("the token, revoked at the authorization server, replayed: 401");

const exited = new Promise((resolve) => { grove.removeAllListeners("exit"); grove.on("exit", (code) => resolve(code)); });
grove.kill("SIGTERM");
const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), timeoutMs))]);
if (code !== 0) fail(`grove exited with ${code} after SIGTERM, want 0`);
asServer.close();
console.log("interop (oauth): all checks passed");
process.exit(0);
