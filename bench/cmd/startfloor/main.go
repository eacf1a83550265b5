// Command startfloor is the floor for bench/startup.sh: the least a Go
// program can do to answer MCP's handshake over stdio. It reads one JSON-RPC
// message a line, answers initialize and tools/list (one tool) and ignores
// notifications, with nothing but the standard library's encoding/json. The
// time startbench measures for it is what "spawn to initialize answer" costs
// on this machine before any server does any work of its own.
//
//	go build -o bench/out/startfloor ./bench/cmd/startfloor
//	bench/out/startbench -grove bench/out/startfloor -grove bench/out/grove
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"params"`
}

func main() {
	for _, a := range os.Args[1:] {
		if a == "--version" {
			fmt.Println("startfloor")
			return
		}
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil || req.ID == nil {
			continue // not a request, or a notification: no answer
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{
				"protocolVersion": req.Params.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "startfloor", "version": "0"},
			}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{
				"name": "noop", "inputSchema": map[string]any{"type": "object"},
			}}}
		default:
			result = map[string]any{}
		}
		b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		if err != nil {
			continue
		}
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
}
