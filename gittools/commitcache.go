package gittools

import (
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// commitCache keeps decoded commits by hash across calls, so that a repeated log (the common case: an agent
// asks for the latest commits again and again) neither inflates nor parses them again. A commit's content is
// fixed by its hash, so an entry never goes stale. Two generations bound it: when the current one is full it
// becomes the old one and the previous old one is dropped; a hit in the old one moves the entry forward.
// The cache belongs to a repo and is guarded by its mutex.
type commitCache struct {
	cur, old map[plumbing.Hash]*cachedCommit
	curBytes int // approximate size of cur's commits
}

// cachedCommit is a decoded commit and, once built, its summary.
type cachedCommit struct {
	c    *object.Commit
	info *CommitInfo // nil until first summarised
}

// A generation holds at most commitCacheGen commits and about commitCacheGenBytes of them: the cache stays
// under ~10 MB whatever the messages (a log of 1,000 commits, the most one call returns, fits in one).
const (
	commitCacheGen      = 4096
	commitCacheGenBytes = 4 << 20
	commitOverhead      = 512 // bytes of a decoded commit and its summary besides the message
)

// maxCachedMessage keeps commits with huge messages out of the cache.
const maxCachedMessage = 16 << 10

func (cc *commitCache) get(h plumbing.Hash) *cachedCommit {
	if e, ok := cc.cur[h]; ok {
		return e
	}
	if e, ok := cc.old[h]; ok {
		cc.put(e)
		return e
	}
	return nil
}

func (cc *commitCache) put(e *cachedCommit) {
	size := commitOverhead + len(e.c.Message)
	if len(cc.cur) >= commitCacheGen || cc.curBytes+size > commitCacheGenBytes {
		cc.old, cc.cur, cc.curBytes = cc.cur, nil, 0
	}
	cc.curBytes += size
	if cc.cur == nil {
		cc.cur = make(map[plumbing.Hash]*cachedCommit)
	}
	cc.cur[e.c.Hash] = e
}

// cachedCommit returns the decoded commit h, from the cache or read and cached.
func (rp *repo) cachedCommit(h plumbing.Hash) (*cachedCommit, error) {
	if e := rp.commits.get(h); e != nil {
		return e, nil
	}
	c, err := rp.git.CommitObject(h)
	if err != nil {
		return nil, err
	}
	return rp.remember(c), nil
}

// remember caches a fully decoded commit (when its message is not too large) and returns its entry.
func (rp *repo) remember(c *object.Commit) *cachedCommit {
	e := &cachedCommit{c: c}
	if len(c.Message) <= maxCachedMessage {
		rp.commits.put(e)
	}
	return e
}

// summary returns the commit's CommitInfo, built once per entry. Callers must not modify it.
func (e *cachedCommit) summary() CommitInfo {
	if e.info == nil {
		ci := commitInfo(e.c)
		e.info = &ci
	}
	return *e.info
}

// commitInfo summarises c.
func commitInfo(c *object.Commit) CommitInfo {
	ci := CommitInfo{
		Hash: c.Hash.String(), Author: c.Author.Name, Email: c.Author.Email,
		Date: c.Author.When.Format(time.RFC3339), Subject: firstLineOf(c.Message),
	}
	if len(c.ParentHashes) > 0 {
		ci.Parents = make([]string, len(c.ParentHashes))
		for i, p := range c.ParentHashes {
			ci.Parents[i] = p.String()
		}
	}
	return ci
}
