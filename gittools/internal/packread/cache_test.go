package packread

import "testing"

// TestCacheBounds fills the cache past its byte and entry bounds: it keeps the newest entries, drops the
// oldest, and its byte count stays within max.
func TestCacheBounds(t *testing.T) {
	tests := []struct {
		name     string
		max      int
		size     int // of each entry's data
		puts     int
		wantKept int // the newest entries still there
	}{
		{"bytes", 10 * (100 + entryOverhead), 100, 50, 10},
		{"entries", 1 << 30, 0, maxEntries + 100, maxEntries},
		{"too large for the cache", 400, 200, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(tt.max)
			for i := range tt.puts {
				c.put(key{0, int64(i)}, Blob, make([]byte, tt.size))
				if c.used > c.max {
					t.Fatalf("after %d puts: %d bytes used, over %d", i+1, c.used, c.max)
				}
			}
			kept := 0
			for i := range tt.puts {
				_, ok := c.get(key{0, int64(i)})
				if ok {
					kept++
				}
				if newest := i >= tt.puts-tt.wantKept; ok != newest {
					t.Fatalf("entry %d: cached %v, want %v", i, ok, newest)
				}
			}
			if kept != tt.wantKept || c.n != kept || len(c.byKey) != kept {
				t.Errorf("kept %d (n %d, map %d), want %d", kept, c.n, len(c.byKey), tt.wantKept)
			}
		})
	}
	c := newCache(1 << 20)
	c.put(key{1, 5}, Tree, []byte("x"))
	if e, ok := c.get(key{1, 5}); !ok || e.typ != Tree || string(e.data) != "x" {
		t.Errorf("get = %v %v", e, ok)
	}
}
