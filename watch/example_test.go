package watch_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/watch"
)

func Example() {
	dir, _ := os.MkdirTemp("", "watch-example")
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir) // roots are real paths

	w, err := watch.New(watch.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	if err := w.SetRoots([]string{dir}); err != nil {
		fmt.Println(err)
		return
	}
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hi"), 0o644)

	b := <-w.Batches()
	for _, p := range b.Created {
		rel, _ := filepath.Rel(dir, p)
		fmt.Println("created:", rel)
	}
	// Output: created: hello.txt
}
