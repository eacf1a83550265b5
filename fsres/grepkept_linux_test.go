package fsres

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// With its trigram index ready, a root's repeated greps keep texts of its
// small files, and the index and the texts together hold at most half the
// text indexed (issue 21's bound for the index's memory), as GrepIndexes
// (list_roots) reports. An edited file is searched as it is now.
func TestGrepKeptTextsBudget(t *testing.T) {
	root := tempRoot(t)
	for i := range 60 {
		var b strings.Builder
		for j := range 200 {
			fmt.Fprintf(&b, "\tif (x%d_%d) return y%d; /* line %d of file %d */\n", i, j, j, j, i)
		}
		writeFile(t, root, fmt.Sprintf("src/d%d/f%d.c", i%4, i), b.String())
	}
	time.Sleep(2100 * time.Millisecond) // texts are kept only of files older than their read by 2 s (racy-clean)
	f := indexedFiles(t, root, 0)
	sc := testScope(t, root)
	ctx := context.Background()
	if _, _, err := f.grep(ctx, nil, sc, GrepArgs{Pattern: "warm_up_token"}); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if !f.WaitGrepIndex(wait, root) {
		t.Fatalf("no index: %+v", f.GrepIndexes())
	}
	for range 3 {
		if _, out, err := f.grep(ctx, nil, sc, GrepArgs{Pattern: "return", MaxResults: 100_000}); err != nil || out.Total != 60*200 {
			t.Fatalf("grep return: %d matches, %v", out.Total, err)
		}
	}
	ix := f.GrepIndexes()[root]
	if ix.KeptBytes <= 0 {
		t.Fatalf("no text kept: %+v", ix)
	}
	if ix.Bytes+ix.KeptBytes > ix.TextBytes/2 {
		t.Errorf("index %d + kept %d bytes > half of %d bytes of text", ix.Bytes, ix.KeptBytes, ix.TextBytes)
	}
	if mem, _ := f.GrepIndexMemory(); mem != ix.Bytes+ix.KeptBytes {
		t.Errorf("GrepIndexMemory %d, want index %d + kept %d", mem, ix.Bytes, ix.KeptBytes)
	}
	writeFile(t, root, "src/d0/f0.c", "\treturn edited;\n")
	_, out, err := f.grep(ctx, nil, sc, GrepArgs{Pattern: "return edited", MaxResults: 10})
	if err != nil || out.Total != 1 {
		t.Errorf("the edited file: %d matches, %v", out.Total, err)
	}
	// Kept texts are used without a stat once the watcher's feed has vouched for them: each edit, of
	// the same size as the text it replaces and made right before the call, is seen.
	for i := range 20 {
		rel := fmt.Sprintf("src/d%d/f%d.c", (i+1)%4, i+1)
		old := readText(t, root, rel)
		edited := strings.Replace(old, "return y7;", fmt.Sprintf("return z%d;", i%10), 1)
		if len(edited) != len(old) || edited == old {
			t.Fatalf("edit %d of %s changes nothing or its size", i, rel)
		}
		writeFile(t, root, rel, edited)
		_, out, err := f.grep(ctx, nil, sc, GrepArgs{Pattern: fmt.Sprintf("return z%d;", i%10), MaxResults: 10})
		if err != nil || out.Total != 1 || out.Matches[0].Path != rel {
			t.Fatalf("edit %d of %s: %+v, %v", i, rel, out.Matches, err)
		}
		writeFile(t, root, rel, old)
	}
}

func readText(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	must(t, err)
	return string(b)
}
