// check.mjs drives the grove binary inside an unpacked MCP Bundle the way a
// host does: mcpb's getMcpConfigForManifest turns the manifest and the
// user's choices (two folders; read-only off, then on) into a command and
// args, and the TypeScript SDK client starts that command over stdio. grove
// must answer list_roots with exactly the two folders, list the tools the
// manifest names (without the write tools when read-only), and send a PNG
// as an image block.
//
// Usage: node check.mjs UNPACKED_DIR FOLDER_A FOLDER_B (run by ci.sh from
// the directory mcpb and the SDK are installed in).
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";

const fail = (msg) => { console.error("FAIL:", msg); process.exit(1); };
const ok = (msg) => console.log("ok  ", msg);

const [dir, ...folders] = process.argv.slice(2).map((p) => realpathSync(p));
if (!dir || folders.length !== 2) fail("usage: node check.mjs UNPACKED_DIR FOLDER_A FOLDER_B");
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));

async function run(userConfig) {
  const config = await getMcpConfigForManifest({
    manifest, extensionPath: dir, systemDirs: {}, userConfig, pathSeparator: sep,
  });
  if (!config) fail(`no mcp config for ${JSON.stringify(userConfig)}`);
  const readOnly = String(userConfig.read_only ?? false);
  const want = [`--read-only=${readOnly}`, "--", ...folders];
  if (JSON.stringify(config.args) !== JSON.stringify(want)) fail(`args ${JSON.stringify(config.args)}, want ${JSON.stringify(want)}`);
  if (config.command !== join(dir, "server", "grove")) fail(`command ${config.command}`);

  const client = new Client({ name: "mcpb-check", version: "1" });
  await client.connect(new StdioClientTransport({ command: config.command, args: config.args, env: config.env, stderr: "ignore" }));
  const roots = await client.callTool({ name: "list_roots", arguments: {} });
  const paths = (roots.structuredContent?.roots ?? []).map((r) => r.path);
  if (roots.isError || JSON.stringify(paths) !== JSON.stringify(folders)) fail(`list_roots: ${JSON.stringify(roots)}`);

  const tools = (await client.listTools()).tools.map((t) => t.name);
  const named = manifest.tools.map((t) => t.name).filter((n) => readOnly === "false" || !["write_file", "edit_file", "move_file"].includes(n));
  const missing = named.filter((n) => !tools.includes(n));
  if (readOnly === "false" && (missing.length || tools.length !== named.length)) fail(`tools ${tools}, manifest ${named}`);
  if (readOnly === "true" && tools.includes("write_file")) fail("read-only grove lists write_file");

  writeFileSync(join(folders[0], "dot.png"), Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==", "base64"));
  const img = await client.callTool({ name: "read_file", arguments: { path: join(folders[0], "dot.png") } });
  if (img.isError || !img.content.some((c) => c.type === "image" && c.mimeType === "image/png")) fail(`read_file of a PNG: ${JSON.stringify(img).slice(0, 300)}`);
  await client.close();
  ok(`${config.args.join(" ")}: list_roots answers the two folders, ${tools.length} tools, a PNG comes as an image block`);
}

await run({ roots: folders });
await run({ roots: folders, read_only: true });
console.log("mcpb: the bundle's binary serves the folders chosen");
