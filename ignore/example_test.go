package ignore_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/ignore"
)

func ExampleMatcher_Walk() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.o\nbuild/\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.c"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "main.o"), nil, 0o644)
	os.MkdirAll(filepath.Join(dir, "build"), 0o755)
	os.WriteFile(filepath.Join(dir, "build", "app"), nil, 0o644)

	m, err := ignore.New(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Ignored("main.o", false), m.Ignored("build", true))
	m.Walk(context.Background(), func(rel string, d fs.DirEntry) error {
		fmt.Println(rel)
		return nil
	})
	// Output:
	// true true
	// .gitignore
	// main.c
}
