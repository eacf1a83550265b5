// What the interop clients share: the git environment, the fixture
// repository and a polling wait. No SDK import, so it runs from anywhere.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

export const timeoutMs = 10_000; // a notification or a changed scope that takes longer never came

// gitEnv isolates the git CLI and grove's git_commit from the machine's git config.
const home = mkdtempSync(join(tmpdir(), "grove-interop-home-"));
export const gitEnv = {
  HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Ann Author", GIT_AUTHOR_EMAIL: "ann@example.com",
  GIT_COMMITTER_NAME: "Cid Committer", GIT_COMMITTER_EMAIL: "cid@example.com", TZ: "UTC", LC_ALL: "C",
};

// waitFor resolves when pred() holds, polling while events arrive, or calls
// fail after timeoutMs with what.
export async function waitFor(what, pred, fail) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await pred()) return;
    if (Date.now() > deadline) fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// A 1x1 PNG and a WAV of four silent samples: read_file sends them as image
// and audio content blocks.
export const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==";
export const wavBase64 = "UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQQAAACAgICA";

// media writes docs/screenshot.png and docs/beep.wav under dir.
export function media(dir) {
  mkdirSync(join(dir, "docs"), { recursive: true });
  writeFileSync(join(dir, "docs", "screenshot.png"), Buffer.from(pngBase64, "base64"));
  writeFileSync(join(dir, "docs", "beep.wav"), Buffer.from(wavBase64, "base64"));
}

// mediaBlocks checks a tool result for one image and one audio block holding
// the fixture's bytes; it returns what is wrong, or "".
export function mediaBlocks(result, want) {
  const got = result.content.filter((c) => c.type === "image" || c.type === "audio")
    .map((c) => `${c.type} ${c.mimeType} ${c.data}`);
  const expected = want.map((w) => ({
    image: `image image/png ${pngBase64}`, audio: `audio audio/wav ${wavBase64}`,
  })[w]);
  return JSON.stringify(got) === JSON.stringify(expected) ? "" : `media blocks ${JSON.stringify(got).slice(0, 300)}, want ${want}`;
}

// repository makes root a git repository with two commits and leaves app.txt
// modified.
export function repository(root) {
  const git = (...args) => execFileSync("git", args, { cwd: root, env: { ...process.env, ...gitEnv } });
  git("init", "-q", "-b", "main");
  mkdirSync(join(root, "sub"));
  writeFileSync(join(root, "sub", "inner.txt"), "inner\n");
  writeFileSync(join(root, "app.txt"), "version one\n");
  git("add", "-A");
  git("commit", "-q", "-m", "first commit");
  writeFileSync(join(root, "app.txt"), "version two\n");
  git("commit", "-q", "-am", "second commit");
  writeFileSync(join(root, "app.txt"), "version three, not committed\n");
}
