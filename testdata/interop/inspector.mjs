// Interop check: the official MCP Inspector CLI calls every tool grove lists,
// once with only its required arguments and once more for each optional one,
// against a fixture repository. Every call must come back as a tool result
// that is not an error: the fixture is built so that each call has something
// to do (a staged file to commit, a branch to switch to, a line to edit), so an
// isError here is a schema the client could not fill or a tool that failed.
// The one exception is listed in expectedErrors, with the error it must give.
//
// Usage: node inspector.mjs INSPECTOR_CLI_DIR GROVE_BINARY
// INSPECTOR_CLI_DIR is the installed @modelcontextprotocol/inspector-cli
// package (see run.sh). Exits non-zero after listing every failed call.
//
// Values go in as text, the way a form gives them (`--tool-arg 'max_count="1"'`
// makes the string "1"), so the CLI has to convert each one by its schema's
// `type`: that is what clients that coerce form input do, and what a nullable
// union such as ["null","integer"] defeats.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { media, mediaBlocks } from "./fixture.mjs";

const [cliDir, grove] = process.argv.slice(2);
if (!cliDir || !grove) {
  console.error("usage: node inspector.mjs INSPECTOR_CLI_DIR GROVE_BINARY");
  process.exit(2);
}
const parallel = Number(process.env.INTEROP_PARALLEL || 4);
const work = mkdtempSync(join(tmpdir(), "grove-inspector-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

// The git CLI builds the fixture under an environment that ignores the
// machine's config; grove's git_commit reads the same identity.
const env = {
  ...process.env,
  HOME: join(work, "home"), XDG_CONFIG_HOME: join(work, "home"), GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Ann Author", GIT_AUTHOR_EMAIL: "ann@example.com",
  GIT_COMMITTER_NAME: "Cid Committer", GIT_COMMITTER_EMAIL: "cid@example.com",
  LC_ALL: "C", TZ: "UTC",
};
mkdirSync(env.HOME);

// fixture makes a repository on main with two commits, a tag v1, a branch
// feature at the first commit, a staged new file, an unstaged edit and an
// ignored file.
function fixture(dir) {
  const git = (...args) => execFileSync("git", args, { cwd: dir, env, stdio: ["ignore", "pipe", "inherit"] });
  const write = (name, text) => {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  mkdirSync(dir, { recursive: true });
  git("init", "-q", "-b", "main");
  write("README.md", "# demo\nhello world\n");
  write("src/main.go", 'package main\n\nfunc main() { println("hello") }\n');
  write(".gitignore", "*.log\n");
  git("add", "-A");
  git("commit", "-q", "-m", "first");
  git("branch", "feature");
  write("README.md", "# demo\nhello world\nsecond line\n");
  write("notes.txt", "some notes\n");
  git("add", "-A");
  git("commit", "-q", "-m", "second");
  git("tag", "v1");
  write("staged.txt", "staged\n");
  git("add", "staged.txt");
  write("src/main.go", 'package main\n\nfunc main() { println("hello, world") }\n');
  write("build.log", "ignored\n");
  media(dir);
}

const template = join(work, "template");
fixture(template);

// Good values, by "tool.argument" first, then by argument name. Paths are
// relative to the one root (the fixture), which every path argument accepts.
const values = {
  "path": "README.md",
  "create_directory.path": "made/deeper",
  "list_directory.path": "src",
  "directory_tree.path": "src",
  "search_files.path": "src",
  "grep.path": "src",
  "grep.type": "go",
  "output_mode": "count",
  "write_file.path": "new.txt",
  "git_init.repo_path": "ROOT/newrepo",
  "repo_path": "ROOT",
  "max_depth": 1, "max_entries": 10,
  "edits": [{ old_text: "hello world", new_text: "hello grove" }],
  "dry_run": true,
  "git_add.files": ["src/main.go"],
  "git_reset.files": ["staged.txt"],
  "revision": "HEAD~1",
  "git_show.revision": "HEAD",
  "git_merge.revision": "feature",
  "revisions": ["HEAD"],
  "git_restore.source": "HEAD~1",
  "start_line": 1, "end_line": 2, "head": 1, "tail": 1,
  "branch_type": "all",
  "branch": "feature",
  "message": "interop message",
  "branch_name": "topic",
  "base_branch": "feature",
  "staged": true,
  "target": "HEAD~1",
  "context_lines": 1,
  "stat_only": true,
  "max_count": 1,
  "author": "Ann",
  "since": "2020-01-01",
  "until": "2100-01-01",
  "git_log.grep": "second",
  "name": "v2",
  "pattern": "hello",
  "search_files.pattern": "*.go",
  "glob": "*.go",
  "max_results": 5,
  "case_insensitive": true,
  "paths": ["README.md", "notes.txt"],
  "source": "notes.txt",
  "destination": "moved.txt",
  "content": "new content\n",
};

// The calls whose right answer, on this fixture, is an isError result, with
// what it must say. git_init without repo_path starts in the one root, which is
// the fixture repository: making it again must be refused.
const expectedErrors = {
  "git_init()": /already a git repository/,
  // git_merge needs a revision, and git_cherry_pick and git_revert need revisions, except to abort or continue.
  "git_merge()": /revision is empty/,
  "git_cherry_pick()": /revisions is empty/,
  "git_revert()": /revisions is empty/,
  "git_merge(repo_path)": /revision is empty/,
  "git_cherry_pick(repo_path)": /revisions is empty/,
  "git_revert(repo_path)": /revisions is empty/,
  // The fixture has a staged file: picking or reverting a commit on top of it is refused (no_commit works).
  "git_cherry_pick(revisions)": /staged changes/,
  "git_cherry_pick(revisions, action)": /staged changes/,
  "git_revert(revisions)": /staged changes/,
  "git_revert(revisions, action)": /staged changes/,
};

// Optional arguments that only mean something with another one.
const companions = {
  "git_tag.message": ["name"],
  "git_tag.revision": ["name"],
  "git_merge.ff": ["revision"],
  "git_merge.message": ["revision"],
  "git_merge.conflict_style": ["revision"],
  "git_merge.allow_unrelated_histories": ["revision"],
  "git_merge.action": ["revision"],
  "git_cherry_pick.action": ["revisions"],
  "git_cherry_pick.no_commit": ["revisions"],
  "git_revert.action": ["revisions"],
  "git_revert.no_commit": ["revisions"],
};

function valueFor(tool, arg, schema, root) {
  let v = values[`${tool}.${arg}`] ?? values[arg];
  if (v === undefined) {
    // A new argument: an enum or a scalar can be filled by its type; anything
    // else needs a value that fits the fixture, added to the map above.
    if (schema.enum) v = schema.enum[0];
    else if (schema.type === "integer" || schema.type === "number") v = 1;
    else if (schema.type === "boolean") v = true;
    else throw new Error(`no value for ${tool}.${arg} (${JSON.stringify(schema.type)}): add one to values in inspector.mjs`);
  }
  if (schema.enum && !schema.enum.includes(v)) throw new Error(`${tool}.${arg}: ${v} is not in its enum`);
  return typeof v === "string" ? v.replace(/^ROOT/, root) : v;
}

// inspector runs the Inspector CLI once against grove serving root, and
// returns its parsed stdout.
function inspector(root, cliArgs) {
  return new Promise((resolve) => {
    // The CLI finds its own package.json relative to the working directory.
    const p = spawn("node", ["index.js", grove, ...cliArgs, "--", "--root", root],
      { cwd: join(cliDir, "build"), env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => p.kill(), 60_000);
    p.on("close", (code) => {
      clearTimeout(timer);
      let result;
      try { result = JSON.parse(out); } catch { /* reported below */ }
      resolve({ code, result, out, err: err.replace(/^\s*⚠️[^\n]*\n([^\n]*\n){0,2}/m, "").trim() });
    });
  });
}

const listed = await inspector(template, ["--method", "tools/list"]);
if (listed.code !== 0 || !listed.result) {
  console.error(`FAIL tools/list: exit ${listed.code}\n${listed.err}\n${listed.out}`);
  process.exit(1);
}
// INTEROP_TOOLS=a,b limits a run to those tools, for a quick check by hand.
const only = process.env.INTEROP_TOOLS?.split(",");
const tools = listed.result.tools.filter((t) => !only || only.includes(t.name));

// One call with the required arguments only, then one per optional argument.
const calls = [];
for (const tool of tools) {
  const props = tool.inputSchema.properties ?? {};
  const required = tool.inputSchema.required ?? [];
  const optional = Object.keys(props).filter((a) => !required.includes(a));
  const call = (args, why) => {
    const sig = `${tool.name}(${args.join(", ")})`;
    calls.push({ tool, args, label: sig + why, wantError: expectedErrors[sig] });
  };
  call(required, "");
  for (const arg of optional) {
    call([...new Set([...required, ...(companions[`${tool.name}.${arg}`] ?? []), arg])], ` for ${arg}`);
  }
}

// Media calls: the CLI validates each result against the SDK's schema, and the
// image and audio blocks must hold the fixture's bytes.
const mediaCalls = [
  { name: "read_file", args: { path: "docs/screenshot.png" }, want: ["image"] },
  { name: "read_files", args: { paths: ["docs/screenshot.png", "README.md", "docs/beep.wav"] }, want: ["image", "audio"] },
].filter((m) => !only || only.includes(m.name));
for (const m of mediaCalls) {
  const tool = tools.find((t) => t.name === m.name);
  calls.push({ tool, args: Object.keys(m.args), values: m.args, label: `${m.name} media ${JSON.stringify(m.args)}`, media: m.want });
}

async function run(call, i) {
  const root = join(work, `call${i}`);
  cpSync(template, root, { recursive: true });
  const props = call.tool.inputSchema.properties ?? {};
  const cliArgs = ["--method", "tools/call", "--tool-name", call.tool.name];
  for (const arg of call.args) {
    const v = call.values?.[arg] ?? valueFor(call.tool.name, arg, props[arg], root);
    const text = typeof v === "string" ? v : JSON.stringify(v);
    cliArgs.push("--tool-arg", `${arg}=${JSON.stringify(text)}`);
  }
  const r = await inspector(root, cliArgs);
  rmSync(root, { recursive: true, force: true });
  if (r.code !== 0 || !r.result) return `exit ${r.code}: ${r.err || r.out}`.slice(0, 600);
  if (!Array.isArray(r.result.content)) return `not a tool result: ${r.out.slice(0, 300)}`;
  const said = r.result.content.map((c) => c.text).join(" ").slice(0, 600);
  if (call.wantError) return r.result.isError && call.wantError.test(said) ? "" : `want an isError result matching ${call.wantError}, got: ${said}`;
  if (r.result.isError) return `isError: ${said}`;
  return call.media ? mediaBlocks(r.result, call.media) : "";
}

const failures = [];
let next = 0;
await Promise.all(Array.from({ length: parallel }, async () => {
  while (next < calls.length) {
    const i = next++;
    let problem;
    try { problem = await run(calls[i], i); } catch (e) { problem = e.message; }
    const note = problem ? `: ${problem}` : calls[i].wantError ? " (isError, as expected)" : "";
    console.log(`${problem ? "FAIL" : "ok  "} ${calls[i].label}${note}`);
    if (problem) failures.push(calls[i].label);
  }
}));
console.log(`inspector: ${calls.length - failures.length} of ${calls.length} calls on ${tools.length} tools validated`);
process.exit(failures.length ? 1 : 0);
