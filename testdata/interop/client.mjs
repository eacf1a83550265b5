// Interop check: the official TypeScript SDK client drives a grove binary over stdio.
// Usage: node client.mjs /path/to/grove /path/to/root
// Needs: npm install @modelcontextprotocol/sdk (see run.sh). Exits non-zero on the first failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [bin, root] = process.argv.slice(2);
const fail = (msg) => { console.error("FAIL:", msg); process.exit(1); };
const ok = (msg) => console.log("ok  ", msg);

const client = new Client({ name: "interop", version: "1" }, { capabilities: { roots: { listChanged: true } } });
client.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).ListRootsRequestSchema,
  async () => ({ roots: [{ uri: pathToFileURL(root).href, name: "root" }] }));
const updated = [];
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updated.push(n.params.uri));
await client.connect(new StdioClientTransport({ command: bin, args: ["--root", root], stderr: "ignore" }));
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

// Large answers go around the Go SDK's encoder (server/carry.go): a 300 KiB
// file with quotes, tabs, non-ASCII and U+2028, by resource and by tool, and a
// 500-entry directory's structured listing.
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

const list = await client.listResources();
if (!list.resources.some((r) => r.uri === uri)) fail(`resources/list lacks ${uri}`);
ok(`resources/list: ${list.resources.length} resources`);

try {
  await client.readResource({ uri: "file:///etc/passwd" });
  fail("resources/read outside the root succeeded");
} catch (e) { ok(`resources/read outside refused: ${e.code}`); }

await client.subscribeResource({ uri });
writeFileSync(file, "changed\n");
for (let i = 0; i < 100 && !updated.includes(uri); i++) await new Promise((r) => setTimeout(r, 50));
if (!updated.includes(uri)) fail("no notifications/resources/updated after a write");
ok("resources/subscribe then updated notification");

const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
for (const name of ["review_changes", "review_commit", "review_file", "commit_message", "explain_history"]) {
  if (!prompts.includes(name)) fail(`prompt ${name} missing`);
}
ok("prompts/list");

const file2 = await client.getPrompt({ name: "review_file", arguments: { path: file } });
if (!JSON.stringify(file2.messages).includes("changed")) fail(`review_file: ${JSON.stringify(file2)}`);
ok("prompts/get review_file embeds the file");

const comp = await client.complete({ ref: { type: "ref/resource", uri: "file:///{+path}" }, argument: { name: "path", value: root + "/he" } });
if (!comp.completion.values.some((v) => v.includes("hello.txt"))) fail(`completion: ${JSON.stringify(comp)}`);
ok("completion/complete of a path");

await client.close();
console.log("interop: all checks passed");
