// fill.mjs makes the server.json of a release from the template at the top
// of the repository: the version, each bundle's download URL under the
// release's tag, and each bundle's SHA-256 (the registry requires it for
// mcpb packages and clients check downloads against it).
//
// Usage: node fill.mjs TEMPLATE VERSION BUNDLE_DIR > server.json
// BUNDLE_DIR holds grove-<os>-<arch>.mcpb as packaging/mcpb/pack.sh names
// them (goreleaser: dist/mcpb). Every package of the template must have its
// bundle there.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";

const [template, rawVersion, dir] = process.argv.slice(2);
if (!template || !rawVersion || !dir) {
  console.error("usage: node fill.mjs TEMPLATE VERSION BUNDLE_DIR");
  process.exit(2);
}
const version = rawVersion.replace(/^v/, "");
const server = JSON.parse(readFileSync(template, "utf8"));
server.version = version;
for (const p of server.packages) {
  const file = basename(new URL(p.identifier).pathname);
  p.identifier = `https://github.com/grove-mcp/grove/releases/download/v${version}/${file}`;
  p.version = version;
  p.fileSha256 = createHash("sha256").update(readFileSync(join(dir, file))).digest("hex");
}
process.stdout.write(JSON.stringify(server, null, 2) + "\n");
