package gittools

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
)

// refusedFile is the error for repository data grove will not use: an index entry or tree entry git would
// never write, a file or object over its size limit, a corrupt file. Its text names the file relative to the
// repository (".git/index", "tree 1a2b3c4"), never a real path.
type refusedFile struct {
	file   string // ".git/index", ".git/config", "tree 1a2b3c4", …
	reason string // what is wrong, in words: no file contents, no paths
	detail string // what the error text adds for the model: the offending entry, quoted
}

func (e *refusedFile) Error() string {
	s := fmt.Sprintf("%s refused: %s", e.file, e.reason)
	if e.detail != "" {
		s += " (" + e.detail + ")"
	}
	return s
}

// badEntry is the refusal of a path from repository data that validRepoPath or validPathComponent rejects.
func badEntry(file, name string) *refusedFile {
	return &refusedFile{file: file, reason: "it holds an entry that is not a path git would write", detail: fmt.Sprintf("%q", name)}
}

// noted logs err for the client when it is a refusal of repository data, and returns it. The record carries
// audience=client, which the server forwards as notifications/message; it names the repository by its file://
// URI (inside the roots) and the file relative to it, and leaves the offending data out.
func (rp *repo) noted(err error) error {
	var rf *refusedFile
	if err != nil && rp.logger != nil && errors.As(err, &rf) {
		rp.logger.Warn("repository file refused", slog.String("audience", "client"),
			slog.String("repo", rp.loc.URI()), slog.String("file", rf.file), slog.String("reason", rf.reason))
	}
	return err
}

// tooBigFile is the refusal of a repository file larger than grove reads.
func tooBigFile(file string, size, limit int64) *refusedFile {
	return &refusedFile{file: file, reason: fmt.Sprintf("it is %s, over the %s limit grove reads", sizeText(size), sizeText(limit))}
}

// sizeText writes a byte count the way the limits are documented: "300 MiB", "1.5 KiB", "20 bytes".
func sizeText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + []string{"KiB", "MiB", "GiB", "TiB", "PiB"}[i]
}
