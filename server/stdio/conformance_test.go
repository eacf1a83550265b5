package stdio

// Protocol golden files, in the manner of go-sdk's mcp/conformance_test.go.
// Each testdata/conformance/*.txtar archive holds:
//
//   - config: the server's Config as JSON ({"roots": [...], "readOnly": bool}),
//     and "git": directories made repositories with one commit of their files
//     (fixed author and date, so the hashes never change);
//   - tree/...: files written under ${ROOT}, a fresh temporary directory
//     (a name ending in "/" makes an empty directory); work/...: files
//     written after the commits (uncommitted changes);
//   - client: JSON-RPC messages the synthetic client sends, in order. Requests
//     wait for their response; responses in this section answer the server's
//     own requests (roots/list), in the order the server sends them; a JSON
//     string is written verbatim as one line (malformed input). A
//     subscriptions/listen waits for its acknowledgement; a
//     notifications/cancelled of that stream ends it without an answer;
//   - server: every message the server wrote, normalised, and the string
//     "the server closed the connection" where it hung up before the client
//     was done (the client's remaining messages are not sent).
//
// The client section may use ${ROOT} and any value captured from an earlier
// server message (${CURSOR}, ${STATE}). Server messages are normalised: the
// temporary path becomes ${ROOT} (${ROOTPATH} without its leading slash, as
// in the {+path} of file:///{+path}), nextCursor ${CURSOR}, requestState ${STATE},
// lastModified ${TIME}. The server runs as main runs it, [Run] with pipes for
// stdin and stdout, and the client speaks raw newline-delimited JSON, so the
// bytes grove writes are what is compared (re-indented, key order kept).
// Run with -update to rewrite the server sections.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/server"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the server sections of the conformance golden files")

// wireTimeout bounds every wait for a server message.
const wireTimeout = 30 * time.Second

// closedMarker stands in the server section where the server ended the
// connection before the client was done.
const closedMarker = `"the server closed the connection"`

// conformanceVersion is the server version in every golden file.
const conformanceVersion = "v0.0.0-conformance"

// volatile are the server fields whose values change from run to run: each
// becomes ${NAME} in the golden file and is captured for later client messages.
var volatile = []struct {
	name string
	re   *regexp.Regexp
}{
	{"CURSOR", regexp.MustCompile(`"nextCursor":"([^"]*)"`)},
	{"STATE", regexp.MustCompile(`"requestState":"([^"]*)"`)},
	{"TIME", regexp.MustCompile(`"lastModified":"([^"]*)"`)},
}

type conformanceTest struct {
	path    string
	archive *txtar.Archive
	config  struct {
		Roots    []string `json:"roots"`
		ReadOnly bool     `json:"readOnly"`
		Git      []string `json:"git"` // repositories: everything under tree/ in them is committed
	}
	tree   []txtar.File
	work   []txtar.File // written after the commits: uncommitted changes
	client []json.RawMessage
	server []json.RawMessage
}

func TestConformance(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "conformance", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no conformance archives: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			t.Parallel()
			test, err := loadConformanceTest(path)
			if err != nil {
				t.Fatal(err)
			}
			got := runConformanceTest(t, test)
			if *update {
				test.writeServer(t, got)
				return
			}
			want, err := indentAll(test.server)
			if err != nil {
				t.Fatalf("%s: server section: %v", path, err)
			}
			if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")); diff != "" {
				t.Errorf("server messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func loadConformanceTest(path string) (*conformanceTest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	test := &conformanceTest{path: path, archive: txtar.Parse(data)}
	seen := make(map[string]bool)
	for _, f := range test.archive.Files {
		if seen[f.Name] {
			return nil, fmt.Errorf("%s: duplicate file %q", path, f.Name)
		}
		seen[f.Name] = true
		switch {
		case f.Name == "config":
			err = json.Unmarshal(f.Data, &test.config)
		case f.Name == "client":
			test.client, err = splitJSON(f.Data)
		case f.Name == "server":
			test.server, err = splitJSON(f.Data)
		case strings.HasPrefix(f.Name, "tree/"):
			test.tree = append(test.tree, f)
		case strings.HasPrefix(f.Name, "work/"):
			test.work = append(test.work, f)
		default:
			err = fmt.Errorf("unexpected file %q", f.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, f.Name, err)
		}
	}
	if !seen["config"] || len(test.client) == 0 {
		return nil, fmt.Errorf("%s: needs a config and a client section", path)
	}
	return test, nil
}

// splitJSON splits a sequence of JSON values, keeping each one's bytes.
func splitJSON(data []byte) ([]json.RawMessage, error) {
	var msgs []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		msgs = append(msgs, raw)
	}
	return msgs, nil
}

// indentAll renders messages one after another, tab-indented, key order kept.
func indentAll(msgs []json.RawMessage) (string, error) {
	var b bytes.Buffer
	for _, m := range msgs {
		if err := json.Indent(&b, m, "", "\t"); err != nil {
			return "", err
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

func (test *conformanceTest) writeServer(t *testing.T, got string) {
	t.Helper()
	arch := &txtar.Archive{Comment: test.archive.Comment}
	for _, f := range test.archive.Files {
		if f.Name != "server" {
			arch.Files = append(arch.Files, f)
		}
	}
	arch.Files = append(arch.Files, txtar.File{Name: "server", Data: []byte(got)})
	if err := os.WriteFile(test.path, txtar.Format(arch), 0o666); err != nil {
		t.Fatal(err)
	}
}

// writeTree creates the archive's tree under a fresh directory and returns it.
func (test *conformanceTest) writeTree(t *testing.T) string {
	t.Helper()
	root := servertest.RealTemp(t)
	if uri := roots.URI(root); uri != "file://"+root {
		t.Skipf("temporary directory %q needs escaping in a URI (%s): golden files assume it does not", root, uri)
	}
	writeFiles(t, root, "tree/", test.tree)
	for _, dir := range test.config.Git {
		servertest.CommitAll(t, strings.ReplaceAll(dir, "${ROOT}", root))
	}
	writeFiles(t, root, "work/", test.work)
	return root
}

func writeFiles(t *testing.T, root, prefix string, files []txtar.File) {
	t.Helper()
	for _, f := range files {
		name := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(f.Name, prefix)))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runConformanceTest plays the client section against a fresh server and
// returns the server's messages, normalised and indented.
func runConformanceTest(t *testing.T, test *conformanceTest) string {
	root := test.writeTree(t)
	cfg := server.Config{ReadOnly: test.config.ReadOnly, Version: conformanceVersion}
	for _, r := range test.config.Roots {
		cfg.Roots = append(cfg.Roots, strings.ReplaceAll(r, "${ROOT}", root))
	}
	p := startWirePeer(t, cfg, root)
	var calls []json.RawMessage
	for _, msg := range test.client {
		if msg[0] == '"' {
			calls = append(calls, msg)
		} else if h := header(t, msg); h.Method == "" {
			p.replies = append(p.replies, msg)
		} else {
			calls = append(calls, msg)
		}
	}
	for _, msg := range calls {
		p.send(msg)
	}
	p.finish()
	return p.got.String()
}

func TestWireNormalisation(t *testing.T) {
	p := &wirePeer{t: t, root: "/tmp/x/001", vars: map[string]string{}}
	h := p.record([]byte(`{"jsonrpc":"2.0","id":3,"result":{"resources":[{"uri":"file:///tmp/x/001/a","annotations":{"lastModified":"2026-01-02T03:04:05Z"}}],"nextCursor":"abc_-1"}}`))
	want := `{
	"jsonrpc": "2.0",
	"id": 3,
	"result": {
		"resources": [
			{
				"uri": "file://${ROOT}/a",
				"annotations": {
					"lastModified": "${TIME}"
				}
			}
		],
		"nextCursor": "${CURSOR}"
	}
}
`
	if diff := cmp.Diff(want, p.got.String()); diff != "" {
		t.Errorf("normalised message mismatch (-want +got):\n%s", diff)
	}
	if string(h.ID) != "3" || h.Method != "" {
		t.Errorf("header = %+v, want a response to id 3", h)
	}
	wantVars := map[string]string{"CURSOR": "abc_-1", "TIME": "2026-01-02T03:04:05Z"}
	if diff := cmp.Diff(wantVars, p.vars); diff != "" {
		t.Errorf("captured values mismatch (-want +got):\n%s", diff)
	}
	if got := string(p.expand(json.RawMessage(`{"cursor": "${CURSOR}", "uri": "file://${ROOT}/b"}`))); got != `{"cursor":"abc_-1","uri":"file://${ROOT}/b"}` {
		t.Errorf("expanded client message = %s", got)
	}
}
