package repo

import (
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CommitCache keeps decoded commits by hash across calls, so that a repeated log (the common case: an agent
// asks for the latest commits again and again) neither inflates nor parses them again. A commit's content is
// fixed by its hash, so an entry never goes stale. Two generations bound it: when the current one is full it
// becomes the old one and the previous old one is dropped; a hit in the old one moves the entry forward.
// The cache belongs to a repo and is guarded by its mutex.
type CommitCache struct {
	Cur, Old map[plumbing.Hash]*CachedCommit
	curBytes int // approximate size of cur's commits
}

// CachedCommit is a decoded commit and, once built, its summary.
type CachedCommit struct {
	C    *object.Commit
	info *CommitInfo // nil until first summarised
}

// A generation holds at most commitCacheGen commits and about commitCacheGenBytes of them: the cache stays
// under ~10 MB whatever the messages (a log of 1,000 commits, the most one call returns, fits in one).
const (
	CommitCacheGen      = 4096
	commitCacheGenBytes = 4 << 20
	commitOverhead      = 512 // bytes of a decoded commit and its summary besides the message
)

// maxCachedMessage keeps commits with huge messages out of the cache.
const maxCachedMessage = 16 << 10

func (cc *CommitCache) Get(h plumbing.Hash) *CachedCommit {
	if e, ok := cc.Cur[h]; ok {
		return e
	}
	if e, ok := cc.Old[h]; ok {
		cc.Put(e)
		return e
	}
	return nil
}

func (cc *CommitCache) Put(e *CachedCommit) {
	size := commitOverhead + len(e.C.Message)
	if len(cc.Cur) >= CommitCacheGen || cc.curBytes+size > commitCacheGenBytes {
		cc.Old, cc.Cur, cc.curBytes = cc.Cur, nil, 0
	}
	cc.curBytes += size
	if cc.Cur == nil {
		cc.Cur = make(map[plumbing.Hash]*CachedCommit)
	}
	cc.Cur[e.C.Hash] = e
}

// CachedCommit returns the decoded commit h, from the cache or read and cached.
func (rp *Repo) CachedCommit(h plumbing.Hash) (*CachedCommit, error) {
	if e := rp.commits.Get(h); e != nil {
		return e, nil
	}
	c, err := rp.Git.CommitObject(h)
	if err != nil {
		return nil, err
	}
	return rp.remember(c), nil
}

// remember caches a fully decoded commit (when its message is not too large) and returns its entry.
func (rp *Repo) remember(c *object.Commit) *CachedCommit {
	e := &CachedCommit{C: c}
	if len(c.Message) <= maxCachedMessage {
		rp.commits.Put(e)
	}
	return e
}

// Summary returns the commit's CommitInfo, built once per entry. Callers must not modify it.
func (e *CachedCommit) Summary() CommitInfo {
	if e.info == nil {
		ci := NewCommitInfo(e.C)
		e.info = &ci
	}
	return *e.info
}

// NewCommitInfo summarises c.
func NewCommitInfo(c *object.Commit) CommitInfo {
	ci := CommitInfo{
		Hash: c.Hash.String(), Author: c.Author.Name, Email: c.Author.Email,
		Date: c.Author.When.Format(time.RFC3339), Subject: FirstLineOf(c.Message),
	}
	if len(c.ParentHashes) > 0 {
		ci.Parents = make([]string, len(c.ParentHashes))
		for i, p := range c.ParentHashes {
			ci.Parents[i] = p.String()
		}
	}
	return ci
}

// CommitInfo summarises one commit.
type CommitInfo struct {
	Hash    string   `json:"hash"`
	Author  string   `json:"author"`
	Email   string   `json:"email"`
	Date    string   `json:"date" jsonschema:"author date, RFC 3339"`
	Subject string   `json:"subject"`
	Parents []string `json:"parents,omitempty"`
}

func FirstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	return strings.TrimSpace(line)
}
