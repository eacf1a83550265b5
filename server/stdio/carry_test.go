package stdio

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The middleware carries large texts and structured contents only while a
// writer is armed, and changes copies, never the handler's result.
func TestCarryResults(t *testing.T) {
	big := strings.Repeat("x", carryMin)
	small := big[:carryMin-1]
	raw := json.RawMessage(`{"k":"` + big + `"}`)
	orig := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: big}, &mcp.TextContent{Text: small}},
		StructuredContent: raw,
	}
	handler := func(context.Context, string, mcp.Request) (mcp.Result, error) { return orig, nil }
	var c carrier
	res, _ := c.results(handler)(context.Background(), "tools/call", nil)
	if res != orig || c.count.Load() != 0 {
		t.Fatal("an unarmed carrier changed the result")
	}
	c.armed.Store(true)
	res, _ = c.results(handler)(context.Background(), "tools/call", nil)
	got := res.(*mcp.CallToolResult)
	if text := got.Content[0].(*mcp.TextContent).Text; len(text) > 64 || !strings.HasPrefix(text, standInPrefix) {
		t.Errorf("large text not carried: %.80q", text)
	}
	if text := got.Content[1].(*mcp.TextContent).Text; text != small {
		t.Errorf("short text carried: %.80q", text)
	}
	if s, ok := got.StructuredContent.(string); !ok || !strings.HasPrefix(s, standInPrefix) {
		t.Errorf("structured content not carried: %T", got.StructuredContent)
	}
	if orig.Content[0].(*mcp.TextContent).Text != big || string(orig.StructuredContent.(json.RawMessage)) != string(raw) {
		t.Error("the handler's result was changed")
	}
	if n := c.count.Load(); n != 2 {
		t.Errorf("%d values held, want 2", n)
	}
}

// fakeQuoted is a text content whose maker quoted its text already.
type fakeQuoted struct {
	*mcp.TextContent
	quoted []byte
}

func (f *fakeQuoted) QuotedText() (*mcp.TextContent, []byte) {
	q := f.quoted
	f.quoted = nil
	return f.TextContent, q
}

// A large text that comes with its JSON string is carried as that string,
// not escaped again; a short one goes as it is.
func TestCarryQuotedText(t *testing.T) {
	big := strings.Repeat("x", carryMin)
	// Not big's JSON, so that the answer shows which one was written.
	quoted := []byte(`"made with the text"`)
	short := &fakeQuoted{&mcp.TextContent{Text: "short"}, []byte(`"short"`)}
	orig := &mcp.CallToolResult{Content: []mcp.Content{&fakeQuoted{&mcp.TextContent{Text: big}, quoted}, short}}
	handler := func(context.Context, string, mcp.Request) (mcp.Result, error) { return orig, nil }
	var c carrier
	c.armed.Store(true)
	res, _ := c.results(handler)(context.Background(), "tools/call", nil)
	got := res.(*mcp.CallToolResult)
	if got.Content[1] != short {
		t.Errorf("short text changed: %#v", got.Content[1])
	}
	p, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := c.write(&out, p); err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(out.Bytes(), &wire); err != nil {
		t.Fatalf("written message is not JSON: %v\n%.300s", err, out.Bytes())
	}
	if len(wire.Content) != 2 || wire.Content[0].Text != "made with the text" || wire.Content[1].Text != "short" {
		t.Errorf("written contents: %+v", wire.Content)
	}
}

// A message holding stand-ins is written with the values in their places; a
// stand-in nobody holds, and a file's text that looks like one, stay as
// they are.
func TestCarrierWrite(t *testing.T) {
	var c carrier
	c.armed.Store(true)
	a := strings.Repeat("a\"\n", carryMin)
	b := strings.Repeat("é\\", carryMin)
	unknown := standInPrefix + strings.Repeat("0", standInHex) + "\x00"
	type msg struct {
		Texts []string        `json:"texts"`
		Value json.RawMessage `json:"value"`
		After string          `json:"after"`
	}
	value := json.RawMessage(`{"list":[1,2,{"x":"y\"z"}]}`)
	p, err := json.Marshal(map[string]any{
		"texts": []string{c.text(a), "small", c.text(b), unknown, `\u0000grove-carry:`},
		"value": c.hold(value, false),
		"after": "end",
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := c.write(&out, p); err != nil {
		t.Fatal(err)
	}
	var got msg
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("written message is not JSON: %v", err)
	}
	want := msg{Texts: []string{a, "small", b, unknown, `\u0000grove-carry:`}, Value: value, After: "end"}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("written message (-want +got):\n%s", diff)
	}
	if n := c.count.Load(); n != 0 {
		t.Errorf("%d values still held after their message was written", n)
	}
}

// Over stdio, large reads arrive whole through every path that carries them:
// read_file, read_files, resources/read, and a large structured result.
func TestBinaryLargeTexts(t *testing.T) {
	bin := servertest.GroveBinary(t)
	dir := servertest.RealTemp(t)
	var sb strings.Builder
	for i := 0; sb.Len() < 3*carryMin; i++ {
		sb.WriteString("line \"quoted\" \\ tab\t<tag> é 🎉 ")
		sb.WriteString(strings.Repeat("x", i%17))
		sb.WriteByte('\n')
	}
	text := sb.String()
	name := filepath.Join(dir, "big.txt")
	servertest.Write(t, name, text)
	many := filepath.Join(dir, "many")
	servertest.Mkdirs(t, dir, "many")
	for i := range 300 {
		servertest.Write(t, filepath.Join(many, fmt.Sprintf("file-%03d.txt", i)), "x")
	}
	uri := "file://" + filepath.ToSlash(name)
	cmd := exec.Command(bin, "--root", dir)
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"` + name + `"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_files","arguments":{"paths":["` + name + `","` + name + `"]}}}
{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"` + uri + `"}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_directory","arguments":{"path":"` + many + `"}}}
`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	texts := map[int]string{}
	entries := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				Content           []struct{ Text string } `json:"content"`
				Contents          []struct{ Text string } `json:"contents"`
				StructuredContent struct {
					Entries []struct{ Name string } `json:"entries"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout carries a line that is not JSON (%v): %.200s", err, line)
		}
		for _, c := range append(m.Result.Content, m.Result.Contents...) {
			texts[m.ID] += c.Text
		}
		if m.ID == 5 {
			entries = len(m.Result.StructuredContent.Entries)
		}
	}
	if strings.Contains(string(out), "grove-carry") {
		t.Error("a stand-in reached the client")
	}
	if !strings.HasSuffix(texts[2], "\n"+text) {
		t.Errorf("read_file: got %d bytes, want the header and the %d-byte file", len(texts[2]), len(text))
	}
	if strings.Count(texts[3], text) != 2 {
		t.Errorf("read_files: the file is not in the answer twice (%d bytes)", len(texts[3]))
	}
	if entries != 300 || strings.Count(texts[5], "file-") != 300 {
		t.Errorf("list_directory: %d structured entries and %d in its text, want 300", entries, strings.Count(texts[5], "file-"))
	}
	if texts[4] != text {
		t.Errorf("resources/read: got %d bytes, want the %d-byte file", len(texts[4]), len(text))
	}
}

// A large grep answer arrives over stdio as it was rendered: its text (made
// with its JSON string, which the carrier splices in) and its structured
// matches, with escapes of every kind in paths and lines, and context.
func TestGrepAnswerOverStdio(t *testing.T) {
	bin := servertest.GroveBinary(t)
	dir := servertest.RealTemp(t)
	odd := []string{"\t\treturn \"q\";", `back\slash`, "é 日本 🎉", "bad \xff byte", "sep\u2028\u2029", "ctl\x01\x1f", "<b>&amp;"}
	type line struct {
		n    int
		text string
	}
	want := map[string][]line{}
	for f, name := range []string{"src/a.c", "src/we\"ird\\name.c", "src/é.c"} {
		var sb strings.Builder
		for i := range 120 {
			text := fmt.Sprintf("%s needle %d %s", odd[(i+f)%len(odd)], i, strings.Repeat("x", i%13))
			if i%5 == 4 {
				text = "no match here"
			}
			sb.WriteString(text + "\n")
			if !strings.Contains(text, "needle") {
				continue
			}
			// JSON carries an invalid byte as U+FFFD.
			want[name] = append(want[name], line{i + 1, strings.ToValidUTF8(text, "\uFFFD")})
		}
		servertest.Mkdirs(t, dir, "src")
		servertest.Write(t, filepath.Join(dir, filepath.FromSlash(name)), sb.String())
	}
	cmd := exec.Command(bin, "--root", dir)
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":"needle","max_results":10000}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":"needle 1[0-9] ","context_lines":1}}}
`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "grove-carry") {
		t.Error("a stand-in reached the client")
	}
	type match struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	answers := map[int]struct {
		text    string
		matches []match
	}{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				Content           []struct{ Text string } `json:"content"`
				StructuredContent struct {
					Matches []match `json:"matches"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout carries a line that is not JSON (%v): %.200s", err, l)
		}
		if len(m.Result.Content) == 1 {
			answers[m.ID] = struct {
				text    string
				matches []match
			}{m.Result.Content[0].Text, m.Result.StructuredContent.Matches}
		}
	}
	all := answers[2]
	if len(all.text) < carryMin {
		t.Fatalf("the answer's text is %d bytes, too short to be carried", len(all.text))
	}
	var wantMatches []match
	var wantText strings.Builder
	for _, name := range []string{"src/a.c", "src/we\"ird\\name.c", "src/é.c"} {
		for _, l := range want[name] {
			wantMatches = append(wantMatches, match{name, l.n, l.text})
			fmt.Fprintf(&wantText, "%s:%d: %s\n", name, l.n, l.text)
		}
	}
	sorted := func(ms []match) []match {
		ms = append([]match(nil), ms...)
		slices.SortFunc(ms, func(a, b match) int {
			return cmp.Compare(a.Path+"\x00"+fmt.Sprint(a.Line), b.Path+"\x00"+fmt.Sprint(b.Line))
		})
		return ms
	}
	if diff := gocmp.Diff(sorted(wantMatches), sorted(all.matches)); diff != "" {
		t.Errorf("structured matches (-want +got):\n%s", diff)
	}
	head, body, _ := strings.Cut(all.text, "\n")
	if !strings.Contains(head, "matching lines in 3 files") {
		t.Errorf("summary line: %q", head)
	}
	gotLines := strings.SplitAfter(body, "\n")
	wantLines := strings.SplitAfter(wantText.String(), "\n")
	slices.Sort(gotLines)
	slices.Sort(wantLines)
	if diff := gocmp.Diff(wantLines, gotLines); diff != "" {
		t.Errorf("text lines (-want +got):\n%s", diff)
	}
	if ctx := answers[3].text; !strings.Contains(ctx, "\n--\n") || !strings.Contains(ctx, "-10- ") || len(answers[3].matches) != 3*10-6 {
		t.Errorf("context answer: %d matches, text %.300q", len(answers[3].matches), ctx)
	}
}
