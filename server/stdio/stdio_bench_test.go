package stdio

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

// stdioSession runs Run over pipes with dir as its root, past the handshake,
// and returns a function that makes one call and reads its answer's line:
// what a stdio client waits for, minus process start-up.
func stdioSession(b *testing.B, dir string) func(call string) []byte {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), server.Config{Roots: []string{dir}}, inR, outW) }()
	b.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil {
			b.Error(err)
		}
	})
	r := bufio.NewReaderSize(outR, 4<<20)
	roundTrip := func(msg string) []byte {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			b.Fatal(err)
		}
		line, err := r.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	return roundTrip
}

func toolCall(name string, args string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
}

// BenchmarkToolsStdio times file tools through Run over pipes, on fixtures
// shaped like bench/fs.sh's: a 1 MiB file of Go-like lines, a directory of
// 1,000 files, and a tree of 40 directories of 49 files; and a grep whose
// answer is as large as issue 21's `return` on git/git (25,000 matching
// lines in 500 files).
func BenchmarkToolsStdio(b *testing.B) {
	dir := servertest.RealTemp(b)
	line := "\tfmt.Println(\"hello, world\") // a line of Go, more or less\n"
	servertest.Write(b, filepath.Join(dir, "big.txt"), strings.Repeat(line, (1<<20)/len(line)))
	servertest.Mkdirs(b, dir, "list")
	for i := range 1000 {
		servertest.Write(b, filepath.Join(dir, "list", fmt.Sprintf("f%04d.txt", i)), "x")
	}
	for d := range 40 {
		sub := filepath.Join(dir, "tree", fmt.Sprintf("d%02d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 49 {
			servertest.Write(b, filepath.Join(sub, fmt.Sprintf("f%02d.txt", f)), "x")
		}
	}
	writeSources(b, filepath.Join(dir, "src"))
	call := stdioSession(b, dir)
	for _, bm := range []struct{ name, call string }{
		{"read_file-1MiB", toolCall("read_file", `{"path":"`+filepath.Join(dir, "big.txt")+`"}`)},
		{"list_directory-1000", toolCall("list_directory", `{"path":"`+filepath.Join(dir, "list")+`"}`)},
		{"directory_tree-2000", toolCall("directory_tree", `{"path":"`+filepath.Join(dir, "tree")+`","max_depth":100,"max_entries":1000000}`)},
		{"grep-25000", toolCall("grep", `{"path":"`+filepath.Join(dir, "src")+`","pattern":"return","max_results":10000000}`)},
	} {
		b.Run(bm.name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				// isError comes last: looking at the tail spares the
				// client's side of the benchmark a scan of megabytes.
				if answer := call(bm.call); bytes.Contains(answer[max(0, len(answer)-64):], []byte(`"isError":true`)) {
					b.Fatalf("%.300s", answer)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// writeSources writes 500 C-like files of 100 lines under dir, half of them
// holding "return": 25,000 matching lines, with quotes and tabs to escape.
func writeSources(b *testing.B, dir string) {
	for d := range 10 {
		sub := filepath.Join(dir, fmt.Sprintf("lib%02d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 50 {
			var src strings.Builder
			for i := range 50 {
				fmt.Fprintf(&src, "\tif (!strcmp(name, \"opt-%d\") && n < %d)\n\t\treturn error(_(\"bad value <%d>\"));\n", i, f, i)
			}
			servertest.Write(b, filepath.Join(sub, fmt.Sprintf("file%02d.c", f)), src.String())
		}
	}
}

// BenchmarkGrepTree times warm greps of $GROVE_BENCH_TREE (skipped when it is
// not set) for $GROVE_BENCH_PATTERN (default "return": 24,595 lines on
// git/git) through Run over pipes, once list_roots reports the trigram index
// ready: bench/grep.sh -warm's call, in process, for pprof.
func BenchmarkGrepTree(b *testing.B) {
	dir, pattern := os.Getenv("GROVE_BENCH_TREE"), os.Getenv("GROVE_BENCH_PATTERN")
	if dir == "" {
		b.Skip("GROVE_BENCH_TREE is not set")
	}
	if pattern == "" {
		pattern = "return"
	}
	call := stdioSession(b, dir)
	q := toolCall("grep", `{"pattern":`+strconv.Quote(pattern)+`,"max_results":10000000}`)
	call(q) // starts the index build
	deadline := time.Now().Add(2 * time.Minute)
	for !bytes.Contains(call(toolCall("list_roots", `{}`)), []byte(`"state":"ready"`)) {
		if time.Now().After(deadline) {
			b.Fatal("the trigram index was not ready after 2 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	start := cpuTime()
	for b.Loop() {
		if answer := call(q); bytes.Contains(answer[max(0, len(answer)-64):], []byte(`"isError":true`)) {
			b.Fatalf("%.300s", answer)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
