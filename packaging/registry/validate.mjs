// validate.mjs checks server.json files against the MCP Registry's published
// server.json schema (draft-07, checked with ajv), then the rules the
// official registry adds for mcpb packages: the identifier is a GitHub
// release asset URL and fileSha256 is present.
//
// Usage: node validate.mjs SCHEMA SERVER_JSON... (run from a directory
// whose node_modules has ajv and ajv-formats; ci.sh runs it from MCPB_DIR).
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";

const [schemaFile, ...files] = process.argv.slice(2);
if (!schemaFile || !files.length) {
  console.error("usage: node validate.mjs SCHEMA SERVER_JSON...");
  process.exit(2);
}
const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const check = ajv.compile(schema);
const release = /^https:\/\/github\.com\/[A-Za-z0-9-]+\/[A-Za-z0-9._-]+\/releases\/download\/[^/]+\/[^/]+\.mcpb$/;
let failed = false;
for (const file of files) {
  const doc = JSON.parse(readFileSync(file, "utf8"));
  const problems = check(doc) ? [] : check.errors.map((e) => `${e.instancePath || "/"} ${e.message}`);
  if (doc.$schema !== schema.$id) {
    problems.push(`$schema ${doc.$schema} is not the schema checked against`);
  }
  for (const [i, p] of (doc.packages ?? []).entries()) {
    if (p.registryType !== "mcpb") continue;
    if (!release.test(p.identifier)) problems.push(`/packages/${i}/identifier is not a GitHub release asset: ${p.identifier}`);
    if (!p.fileSha256) problems.push(`/packages/${i} has no fileSha256`);
    if (p.version !== doc.version) problems.push(`/packages/${i}/version ${p.version} is not the server's ${doc.version}`);
  }
  if (problems.length) {
    failed = true;
    console.error(`FAIL ${file}:\n  ${problems.join("\n  ")}`);
  } else {
    console.log(`ok   ${file}: valid against ${schemaFile.split("/").slice(-1)[0]}, ${doc.packages.length} mcpb packages`);
  }
}
process.exit(failed ? 1 : 0);
