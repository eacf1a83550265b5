package gitfmt

import (
	"fmt"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"
)

// RefusedFile is the error for repository data grove will not use: an index entry or tree entry git would
// never write, a file or object over its size limit, a corrupt file. Its text names the file relative to the
// repository (".git/index", "tree 1a2b3c4"), never a real path.
type RefusedFile struct {
	File   string // ".git/index", ".git/config", "tree 1a2b3c4", …
	Reason string // what is wrong, in words: no file contents, no paths
	detail string // what the error text adds for the model: the offending entry, quoted
}

func (e *RefusedFile) Error() string {
	s := fmt.Sprintf("%s refused: %s", e.File, e.Reason)
	if e.detail != "" {
		s += " (" + e.detail + ")"
	}
	return s
}

// BadEntry is the refusal of a path from repository data that validRepoPath or validPathComponent rejects.
func BadEntry(file, name string) *RefusedFile {
	return &RefusedFile{File: file, Reason: "it holds an entry that is not a path git would write", detail: fmt.Sprintf("%q", name)}
}

// TooBigFile is the refusal of a repository file larger than grove reads.
func TooBigFile(file string, size, limit int64) *RefusedFile {
	return &RefusedFile{File: file, Reason: fmt.Sprintf("it is %s, over the %s limit grove reads", patchtext.SizeText(size), patchtext.SizeText(limit))}
}
