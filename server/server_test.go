package server

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect starts a server for cfg and a client of the given era whose roots
// are clientRoots (absolute paths); none means the client declares no roots.
func connect(t *testing.T, cfg Config, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, *Server) {
	t.Helper()
	return connectWith(t, cfg, era, nil, clientRoots...)
}

// connectWith is connect with client options.
func connectWith(t *testing.T, cfg Config, era string, opts *mcp.ClientOptions, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, *Server) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	for _, r := range clientRoots {
		client.AddRoots(&mcp.Root{URI: roots.URI(r)})
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, client, s
}

func listRoots(t *testing.T, cs *mcp.ClientSession) ListRootsOut {
	t.Helper()
	return servertest.ToolOutput[ListRootsOut](t, cs, "list_roots")
}

func paths(out ListRootsOut) []string {
	var ps []string
	for _, r := range out.Roots {
		ps = append(ps, r.Path)
	}
	slices.Sort(ps)
	return ps
}

func TestListRootsFollowsClientRoots(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			base := servertest.RealTemp(t)
			servertest.Mkdirs(t, base, "a", "b")
			a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
			cs, client, _ := connect(t, Config{Roots: []string{base}}, era, a)

			if diff := cmp.Diff([]string{a}, paths(listRoots(t, cs))); diff != "" {
				t.Fatalf("roots mismatch (-want +got):\n%s", diff)
			}
			client.AddRoots(&mcp.Root{URI: roots.URI(b)})
			client.RemoveRoots(roots.URI(a))
			if diff := cmp.Diff([]string{b}, paths(listRoots(t, cs))); diff != "" {
				t.Fatalf("roots after change mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClientRootsNeverWiden(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			base := servertest.RealTemp(t)
			servertest.Mkdirs(t, base, "proj/sub", "proj-evil", "other")
			proj := filepath.Join(base, "proj")
			for _, tt := range []struct {
				name    string
				client  []string
				want    []string
				ignored []string // client roots list_roots reports refused
			}{
				{"inside narrows", []string{filepath.Join(proj, "sub")}, []string{filepath.Join(proj, "sub")}, nil},
				{"prefix sibling dropped", []string{filepath.Join(base, "proj-evil")}, nil, []string{filepath.Join(base, "proj-evil")}},
				{"outside dropped", []string{filepath.Join(base, "other")}, nil, []string{filepath.Join(base, "other")}},
				{"filesystem root is cut to the ceiling", []string{"/"}, []string{proj}, nil},
				{"parent is cut to the ceiling", []string{base}, []string{proj}, nil},
				{"mixed keeps only the inside", []string{filepath.Join(base, "other"), filepath.Join(proj, "sub")}, []string{filepath.Join(proj, "sub")}, []string{filepath.Join(base, "other")}},
			} {
				t.Run(tt.name, func(t *testing.T) {
					cs, _, _ := connect(t, Config{Roots: []string{proj}}, era, tt.client...)
					out := listRoots(t, cs)
					if diff := cmp.Diff(tt.want, paths(out)); diff != "" {
						t.Errorf("roots mismatch (-want +got):\n%s", diff)
					}
					if len(out.Ignored) != len(tt.ignored) {
						t.Errorf("ignored %q, want the client roots %q", out.Ignored, tt.ignored)
					}
					for i, p := range tt.ignored {
						if i < len(out.Ignored) && !strings.HasPrefix(out.Ignored[i], roots.URI(p)+" (") {
							t.Errorf("ignored[%d] = %q, want %s with a reason", i, out.Ignored[i], roots.URI(p))
						}
					}
					if len(tt.want) == 0 && out.Hint == "" {
						t.Error("no roots, but no hint on how to fix it")
					}
				})
			}
		})
	}
}

func TestNoRootsAtAll(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			cs, _, _ := connect(t, Config{}, era)
			out := listRoots(t, cs)
			if len(out.Roots) != 0 || !strings.Contains(out.Hint, "--root") {
				t.Errorf("got %+v, want no roots and a hint naming --root", out)
			}
		})
	}
}

func TestClientRootsWithoutCeiling(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "ws")
	ws := filepath.Join(base, "ws")
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			cs, _, _ := connect(t, Config{}, era, ws, "/")
			out := listRoots(t, cs)
			if diff := cmp.Diff([]string{ws}, paths(out)); diff != "" {
				t.Errorf("roots mismatch (-want +got):\n%s", diff)
			}
			for _, r := range out.Roots {
				if r.Source != "client" {
					t.Errorf("root %s source = %q, want client", r.Path, r.Source)
				}
			}
		})
	}
}

func TestInitializeResult(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			cs, _, _ := connect(t, Config{Roots: []string{servertest.RealTemp(t)}, Version: "v9.9.9"}, era)
			res := cs.InitializeResult()
			if res.ServerInfo.Name != "grove" || res.ServerInfo.Title == "" || res.ServerInfo.Version != "v9.9.9" {
				t.Errorf("serverInfo = %+v", res.ServerInfo)
			}
			if !strings.Contains(res.Instructions, "list_roots") {
				t.Errorf("instructions do not mention list_roots: %q", res.Instructions)
			}
			c := res.Capabilities
			if c.Tools == nil || c.Resources == nil || !c.Resources.Subscribe || c.Prompts == nil || c.Completions == nil {
				t.Errorf("capabilities = %+v", c)
			}
		})
	}
}

// list_roots says "git" exactly where the Git tools will work: discovery
// never walks above a root, so a root below a repository's top is not one.
func TestListRootsGit(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "repo/.git", "repo/sub", "plain")
	cs, _, _ := connect(t, Config{Roots: []string{filepath.Join(base, "repo"), filepath.Join(base, "repo", "sub"), filepath.Join(base, "plain")}}, servertest.Legacy)
	got := map[string]bool{}
	for _, r := range listRoots(t, cs).Roots {
		got[filepath.Base(r.Path)] = r.Git
	}
	if diff := cmp.Diff(map[string]bool{"repo": true, "sub": false, "plain": false}, got); diff != "" {
		t.Errorf("git flags mismatch (-want +got):\n%s", diff)
	}
}

func TestServertestModernIsOurs(t *testing.T) {
	if servertest.Modern != ModernVersion {
		t.Errorf("servertest.Modern = %q, want ModernVersion %q", servertest.Modern, ModernVersion)
	}
}
