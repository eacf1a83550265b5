package gitwrite

// Reflog entries, as git writes them for a non-bare repository (core.logAllRefUpdates defaults to true): they
// are how a user finds a commit again after a branch moved. go-git writes none.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
)

// AppendReflog adds "old new ident time\tmsg" to the log of ref (logs/HEAD in the git dir, logs/refs/... in the
// common dir). It is best-effort: the ref itself is already written, and git tolerates a missing log line.
func AppendReflog(rp *repo.Repo, ref plumbing.ReferenceName, old, new plumbing.Hash, msg string) error {
	if !logsRefUpdates(rp, ref) {
		return nil
	}
	sig, err := Signature(rp, "committer", time.Now())
	if err != nil {
		return err
	}
	base := rp.CommonDir
	if ref == plumbing.HEAD {
		base = rp.GitDir
	}
	dir, err := openDir(rp, base)
	if err != nil {
		return err
	}
	defer dir.Close()
	name := filepath.Join("logs", filepath.FromSlash(ref.String()))
	if err := dir.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := dir.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	msg = strings.NewReplacer("\n", " ", "\t", " ").Replace(msg)
	_, err = fmt.Fprintf(f, "%s %s %s <%s> %d %s\t%s\n", old, new, sig.Name, sig.Email, sig.When.Unix(),
		sig.When.Format("-0700"), msg)
	return errors.Join(err, f.Close())
}

// logsRefUpdates follows core.logAllRefUpdates: by default (non-bare) HEAD and branches are logged.
func logsRefUpdates(rp *repo.Repo, ref plumbing.ReferenceName) bool {
	v := strings.ToLower(lastConfigValue(append(GlobalConfigs(), localConfig(rp)), "core", "logallrefupdates"))
	switch v {
	case "false", "no", "off", "0":
		return false
	case "always":
		return true
	}
	return ref == plumbing.HEAD || ref.IsBranch() || ref.IsRemote() || strings.HasPrefix(ref.String(), "refs/notes/")
}
