package server

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/watch"
)

// Doctor writes a report for a person: the roots grove resolved from cfg,
// which are Git repositories, how many files a client would see, and the
// machine's inotify watch limit, or where watches cost file descriptors
// (kqueue), their budget and how much of it each root would take.
func Doctor(ctx context.Context, w io.Writer, cfg Config) error {
	s, err := New(cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Fprintf(w, "grove %s\n", cfg.Version)
	rs := s.set.Ceiling().Roots()
	if len(rs) == 0 {
		fmt.Fprint(w, "roots: none. grove was started without a directory, so only folders the client shares\n")
		fmt.Fprint(w, "       will be reachable. Start it with one: grove --root /path/to/project\n")
	}
	for _, r := range rs {
		kind := "directory"
		if r.File {
			kind = "file"
		}
		fmt.Fprintf(w, "root: %s (%s)\n", r.Path, kind)
		if gitAt(r) {
			fmt.Fprint(w, "  git: yes\n")
		} else {
			fmt.Fprint(w, "  git: no\n")
		}
		if r.File {
			continue
		}
		files, dirs, err := count(ctx, r.Path)
		if err != nil {
			fmt.Fprintf(w, "  files: counting failed: %v\n", err)
			continue
		}
		fmt.Fprintf(w, "  files: %d in %s (not counting .gitignored ones)\n", files, words.Count(dirs, "directory", "directories"))
		if budget, _ := watch.DescriptorBudget(); budget > 0 {
			fmt.Fprintf(w, "  watches: %s\n", budgetReport(files, dirs, budget))
		}
	}
	mode := "read-write"
	if cfg.ReadOnly {
		mode = "read-only"
	}
	fmt.Fprintf(w, "mode: %s\n", mode)
	if budget, limit := watch.DescriptorBudget(); budget > 0 {
		fmt.Fprintf(w, "kqueue: watches may hold %d file descriptors, half of the limit of %d (one per watched "+
			"directory and per entry in it); past that, directories are polled every %s\n", budget, limit, watch.DefaultPollInterval)
	} else {
		fmt.Fprintf(w, "inotify: %s\n", inotifyReport())
	}
	return nil
}

// budgetReport estimates what watching a tree of files and dirs takes under kqueue: a descriptor for each
// directory and one for each entry of a watched directory (each file, and each directory again).
func budgetReport(files, dirs, budget int) string {
	need := files + 2*dirs
	if need <= budget {
		return fmt.Sprintf("all watched, about %d of the %d file descriptors", need, budget)
	}
	return fmt.Sprintf("about %d file descriptors to watch everything, over the budget of %d: the directories "+
		"nearest the root and subscribed files are watched, the rest polled", need, budget)
}

func count(ctx context.Context, dir string) (files, dirs int, err error) {
	m, err := ignore.New(dir)
	if err != nil {
		return 0, 0, err
	}
	err = m.Walk(ctx, func(_ string, d fs.DirEntry) error {
		if d.IsDir() {
			dirs++
		} else {
			files++
		}
		return nil
	})
	return files, dirs, err
}

// inotifyReport tells how many directories the kernel lets one user watch.
func inotifyReport() string {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	if err != nil {
		return "no inotify on this system (fsnotify uses the platform's own mechanism)"
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return "unreadable watch limit"
	}
	return fmt.Sprintf("max_user_watches = %d (one watch per directory; raise with sysctl fs.inotify.max_user_watches)", n)
}
