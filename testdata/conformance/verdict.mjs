// Judges one conformance run against the expected-failures list.
//
//   node verdict.mjs EXPECTED-FAILURES REVISION RESULTS-DIR RUN-LOG
//
// RESULTS-DIR holds the suite's server-<scenario>-<time>/checks.json;
// RUN-LOG is its output, whose "=== Running scenario: X ===" lines say what
// ran. A check fails when its status is FAILURE (a WARNING does not fail).
// Exit 1 when a scenario or check fails without a line in the list, when a
// listed one passes (the list must stay true), or when a scenario that
// ran left no result. Prints one line per scenario and a closing count.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [listPath, revision, resultsDir, logPath] = process.argv.slice(2);
if (!logPath) {
  console.error('usage: node verdict.mjs EXPECTED-FAILURES REVISION RESULTS-DIR RUN-LOG');
  process.exit(2);
}

// expected: scenario -> {whole: bool, checks: Set}
const expected = new Map();
for (const raw of readFileSync(listPath, 'utf8').split('\n')) {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) continue;
  const [rev, target] = line.split(/\s+/);
  if (rev !== revision) continue;
  const [scenario, check] = target.split(':');
  const e = expected.get(scenario) ?? { whole: false, checks: new Set() };
  if (check) e.checks.add(check);
  else e.whole = true;
  expected.set(scenario, e);
}

const ran = [...readFileSync(logPath, 'utf8').matchAll(/=== Running scenario: (\S+) ===/g)].map((m) => m[1]);
const results = new Map(); // scenario -> checks
for (const dir of existsSync(resultsDir) ? readdirSync(resultsDir) : []) {
  const m = dir.match(/^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
  const file = join(resultsDir, dir, 'checks.json');
  if (m && existsSync(file)) results.set(m[1], JSON.parse(readFileSync(file, 'utf8')));
}

let problems = 0;
let passed = 0;
let expectedFailed = 0;
const report = (ok, scenario, text) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${revision} ${scenario}${text ? ': ' + text : ''}`);
  if (!ok) problems++;
};

for (const scenario of new Set([...ran, ...expected.keys()])) {
  const exp = expected.get(scenario);
  const checks = results.get(scenario);
  if (!ran.includes(scenario)) {
    report(false, scenario, 'listed in expected-failures but the suite did not run it (renamed or dropped? delete the line)');
    continue;
  }
  if (!checks) {
    report(false, scenario, 'ran but left no checks.json');
    continue;
  }
  const failing = [...new Set(checks.filter((c) => c.status === 'FAILURE').map((c) => c.id))];
  if (exp?.whole) {
    if (failing.length === 0) report(false, scenario, 'passes now but is listed in expected-failures: delete its line');
    else {
      expectedFailed++;
      report(true, scenario, `fails as expected (${failing.join(', ')})`);
    }
    continue;
  }
  const listed = exp?.checks ?? new Set();
  const unexpected = failing.filter((id) => !listed.has(id));
  const stale = [...listed].filter((id) => !failing.includes(id));
  if (unexpected.length > 0) {
    const why = checks.filter((c) => unexpected.includes(c.id)).map((c) => `${c.id}: ${c.errorMessage ?? ''}`);
    report(false, scenario, `unexpected failure: ${why.join('; ')}`);
  } else if (stale.length > 0) {
    report(false, scenario, `${stale.join(', ')} passes now but is listed in expected-failures: delete its line`);
  } else if (listed.size > 0) {
    expectedFailed++;
    report(true, scenario, `fails only the listed ${[...listed].join(', ')}`);
  } else {
    passed++;
    report(true, scenario, '');
  }
}
const total = passed + expectedFailed + problems;
console.log(`conformance ${revision}: ${passed} passed, ${expectedFailed} expected failures, ${problems} problems, of ${total} scenarios`);
process.exit(problems > 0 ? 1 : 0);
