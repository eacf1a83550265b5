package scope

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/grove-mcp/grove/internal/jsonenc"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddTool registers a typed tool that runs within the request's scope, like
// mcp.AddTool with [Tool], but without the SDK's validation of every output:
// that marshals the result, decodes it into a generic tree, validates the tree
// and marshals it again, which cost most of the time of the tools that return
// large results (a 1 MiB file, a 1,000-entry listing). Our outputs are values
// of Out, whose schema is inferred from Out itself, so they conform by
// construction. Input is still validated against In's schema, with its
// defaults applied; fields tagged enum:"a,b,c" get that enum in the schema
// (see addEnums), and optional arguments are plain types, not the nullable
// unions the inference gives pointers and slices (see plainTypes). Both
// schemas are otherwise the ones mcp.AddTool would advertise. With no roots,
// a call gets [NoRootsError].
// Out must be a struct, so that the output is an object (legacy clients
// require one).
//
// Registration only infers the schemas: resolving one (what validating input
// needs) costs about as much again, so In's is resolved at the tool's first
// call, and Out's, used by no one here, never ([CheckSchemas] does it in
// tests). With ~40 tools that halves the registration a first call waits for.
func AddTool[In, Out any](s *mcp.Server, t *mcp.Tool, p Provider, h ToolHandler[In, Out]) {
	tt := *t
	if !jsonenc.Fast(reflect.TypeFor[Out]()) {
		slowOutputs.Store(tt.Name, true)
	}
	inSchema := schemaFor[In](plainTypes)
	tt.InputSchema = inSchema
	if tt.OutputSchema == nil {
		tt.OutputSchema = schemaFor[Out](nil)
	}
	inResolved := sync.OnceValues(func() (*jsonschema.Resolved, error) { return resolve(inSchema) })
	s.AddTool(&tt, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		resolved, err := inResolved()
		if err != nil {
			return nil, fmt.Errorf("resolving the input schema of %s: %w", tt.Name, err)
		}
		in, err := decodeInput[In](req.Params.Arguments, inSchema, resolved)
		if err != nil {
			return errorResult(err), nil
		}
		sc, ask := p.Scope(req)
		if ask != nil {
			return &mcp.CallToolResult{InputRequests: ask, RequestState: RequestState}, nil
		}
		if sc.Empty() {
			return errorResult(NoRootsError(p, req)), nil
		}
		return finish(h(ctx, req, sc, in))
	})
	if r, ok := p.(Registrar); ok {
		r.Registered(tt.Name)
	}
}

// slowOutputs holds the names of the tools whose output type jsonenc does not
// compile: encoding/json encodes those, with the same bytes, at about half
// the speed (an embedded pointer, a ",string" field, a MarshalJSON with a
// pointer receiver).
var slowOutputs sync.Map // tool name → true

// SlowOutputs returns the sorted names of the tools registered so far whose
// outputs jsonenc hands to encoding/json; a server test keeps it empty.
func SlowOutputs() []string {
	var names []string
	slowOutputs.Range(func(k, _ any) bool {
		names = append(names, k.(string))
		return true
	})
	slices.Sort(names)
	return names
}

// schemaFor infers T's schema as mcp.AddTool does; a type without one is a
// programmer's error, found at start-up.
func schemaFor[T any](adjust func(*jsonschema.Schema)) *jsonschema.Schema {
	rt := reflect.TypeFor[T]()
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	schema, err := jsonschema.ForType(rt, &jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("schema of %v: %v", rt, err))
	}
	addEnums(rt, schema)
	if adjust != nil {
		adjust(schema)
	}
	return schema
}

// resolve prepares schema for validation, checking its defaults against it.
func resolve(schema *jsonschema.Schema) (*jsonschema.Resolved, error) {
	return schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
}

// CheckSchemas resolves the input and output schemas of tools as AddTool
// would have them resolved: a schema that cannot be (a programmer's error,
// which AddTool finds only at the tool's first call) is returned as an
// error naming the tool. Tests call it on every registered tool.
func CheckSchemas(tools []*mcp.Tool) error {
	var errs []error
	for _, t := range tools {
		for what, v := range map[string]any{"input": t.InputSchema, "output": t.OutputSchema} {
			if v == nil {
				continue
			}
			schema, err := asSchema(v)
			if err == nil {
				_, err = resolve(schema)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s schema of %s: %w", what, t.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// asSchema returns a tool's schema as a *jsonschema.Schema: as registered, or
// decoded from the JSON a client received.
func asSchema(v any) (*jsonschema.Schema, error) {
	if s, ok := v.(*jsonschema.Schema); ok {
		return s, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	return &s, json.Unmarshal(b, &s)
}

// decodeInput validates the arguments, applies their defaults and decodes
// them into In. Null arguments count as absent; an argument of the wrong type
// gets an error that names it and the type it needs.
func decodeInput[In any](args json.RawMessage, schema *jsonschema.Schema, resolved *jsonschema.Resolved) (In, error) {
	var in In
	v := map[string]any{}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &v); err != nil {
			return in, fmt.Errorf("validating \"arguments\": %v", err)
		}
	}
	dropNulls(v)
	if err := checkTypes(schema, v); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %w", err)
	}
	var tree any = v
	if err := resolved.ApplyDefaults(&tree); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %v", err)
	}
	if err := resolved.Validate(&tree); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %v", err)
	}
	b, err := json.Marshal(tree)
	if err == nil {
		err = json.Unmarshal(b, &in)
	}
	return in, err
}

// finish turns a handler's answer into the result: an error the model should
// see becomes an isError result (a JSON-RPC error stays one), and the output
// is marshalled once, by jsonenc (encoding/json's bytes, about twice as
// fast), into structuredContent and, when the handler wrote no content, a
// text block holding the same JSON, as the protocol says a structured
// result SHOULD have for clients that read only content. A handler that
// writes its own content (grep's grep-style lines, read_file's text) gives
// those clients the same facts in a form a model reads more easily and in
// fewer bytes than JSON escaped into a string.
// structuredContent is a jsonenc.Pooled: the stdio writer hands its buffer
// back once the answer is written.
func finish[Out any](res *mcp.CallToolResult, out Out, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		return errorResult(err), nil
	}
	if res == nil {
		res = &mcp.CallToolResult{}
	}
	if res.InputRequests != nil || res.IsError {
		return res, nil
	}
	b, err := jsonenc.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("marshaling tool output: %w", err)
	}
	res.StructuredContent = jsonenc.Pooled(b)
	if res.Content == nil {
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
	}
	return res, nil
}

func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}
