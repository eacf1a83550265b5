package stdio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/fsres"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkAnswer times what a large answer costs once its handler has it:
// scope.AddTool's marshalling into structuredContent (and the text block),
// the carrier, the SDK's encoding of the result and of the JSON-RPC
// response, and the writer, through Run's stack over pipes. The tools
// return a prebuilt answer shaped like grep's `return` on git/git (25,000
// matching lines, 1.9 MB of JSON): "grep" with grep-style lines for its
// text, as grep answers; "json-text" with none, so that the text block is
// the JSON again. The client's side only finds each line's end.
func BenchmarkAnswer(b *testing.B) {
	out, text := bigGrep()
	s, err := server.New(server.Config{Roots: []string{servertest.RealTemp(b)}})
	if err != nil {
		b.Fatal(err)
	}
	p := scope.Static(s.Roots().Ceiling())
	scope.AddTool(s.MCP(), &mcp.Tool{Name: "big_grep"}, p,
		func(context.Context, *mcp.CallToolRequest, *roots.Scope, struct{}) (*mcp.CallToolResult, fsres.GrepResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
		})
	scope.AddTool(s.MCP(), &mcp.Tool{Name: "big_json"}, p,
		func(context.Context, *mcp.CallToolRequest, *roots.Scope, struct{}) (*mcp.CallToolResult, fsres.GrepResult, error) {
			return nil, out, nil
		})
	call := serveForBench(b, s)
	for _, bm := range []struct{ name, tool string }{{"grep", "big_grep"}, {"json-text", "big_json"}} {
		b.Run(bm.name, func(b *testing.B) {
			msg := toolCall(bm.tool, `{}`)
			size := call(msg)
			b.SetBytes(int64(size))
			start := cpuTime()
			for b.Loop() {
				call(msg)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// bigGrep returns a grep answer of 25,000 lines of C in 500 files, and its
// grep-style text.
func bigGrep() (fsres.GrepResult, string) {
	out := fsres.GrepResult{Path: "/work/repos/git", Files: 4824}
	var text strings.Builder
	text.WriteString("25000 matching lines in 500 files under /work/repos/git (4824 files searched)\n")
	for i := range 25000 {
		m := fsres.GrepMatch{
			Path: fmt.Sprintf("builtin/file%03d.c", i/50),
			Line: i%50*2 + 1,
			Text: fmt.Sprintf("\t\treturn error(_(\"bad value <%d> for '%%s'\"), name);", i),
		}
		out.Matches = append(out.Matches, m)
		fmt.Fprintf(&text, "%s:%d: %s\n", m.Path, m.Line, m.Text)
	}
	out.Total = len(out.Matches)
	return out, text.String()
}

// serveForBench serves s as Run does over pipes, past the handshake, and
// returns a function that makes one call, reads its answer's line without
// keeping it, and returns its length. A call that fails ends the benchmark.
func serveForBench(b *testing.B, s *server.Server) func(call string) int {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &carrier{}
	s.MCP().AddReceivingMiddleware(c.results)
	done := make(chan error, 1)
	go func() { done <- serve(context.Background(), s, c, inR, outW) }()
	b.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil && !errors.Is(err, io.EOF) {
			b.Error(err)
		}
		s.Close()
	})
	r := bufio.NewReaderSize(outR, 1<<20)
	roundTrip := func(msg string) int {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			b.Fatal(err)
		}
		n, tail := 0, []byte(nil)
		for {
			chunk, err := r.ReadSlice('\n')
			n += len(chunk)
			tail = append(tail[:0], chunk[max(0, len(chunk)-64):]...)
			if err == nil {
				break
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				b.Fatal(err)
			}
		}
		if bytes.Contains(tail, []byte(`"isError":true`)) || n < 1<<20 && bytes.Contains(tail, []byte(`"error"`)) {
			b.Fatalf("the call failed: …%s", tail)
		}
		return n
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	return roundTrip
}
