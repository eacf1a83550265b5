package repo

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// ctxLock is a mutex whose waiters can give up: a request waiting for a repository that another request holds
// (a long status, a big checkout) stops waiting when its context ends, instead of queueing work for a client
// that has gone. Its zero value is unlocked. Taking a free lock costs a channel send, as cheap as sync.Mutex
// for our purposes.
type ctxLock struct {
	once  sync.Once
	ch    chan struct{} // holds a token while locked
	asked atomic.Int64  // when a request last asked for the lock (LockContext), in Unix nanoseconds
}

func (l *ctxLock) init() { l.once.Do(func() { l.ch = make(chan struct{}, 1) }) }

// LockContext takes the lock, or returns ctx.Err() if ctx ends first.
func (l *ctxLock) LockContext(ctx context.Context) error {
	l.init()
	l.asked.Store(time.Now().UnixNano())
	select {
	case l.ch <- struct{}{}:
		return nil
	default:
	}
	select {
	case l.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SinceAsked is how long ago a request last asked for the lock (LockContext); background work that can wait
// backs off while requests come in.
func (l *ctxLock) SinceAsked() time.Duration {
	return time.Duration(time.Now().UnixNano() - l.asked.Load())
}

// Lock takes the lock for work no request waits on (background warming, Close).
func (l *ctxLock) Lock() {
	l.init()
	l.ch <- struct{}{}
}

// Unlock releases the lock; it panics when the lock is not held, as sync.Mutex does.
func (l *ctxLock) Unlock() {
	select {
	case <-l.ch:
	default:
		panic("gittools: unlock of unlocked repository lock")
	}
}

// LockContext takes rp's lock, held for a whole operation (go-git is not thread-safe), or returns ctx.Err()
// if ctx ends first. Requests take it this way, so that one waiting behind a long operation stops waiting
// when its client goes.
func (rp *Repo) LockContext(ctx context.Context) error { return rp.lock.LockContext(ctx) }

// Lock takes rp's lock for work no request waits on (background warming, Close).
func (rp *Repo) Lock() { rp.lock.Lock() }

// Unlock releases rp's lock.
func (rp *Repo) Unlock() { rp.lock.Unlock() }

// SinceAsked is how long ago a request last asked for rp's lock; background work backs off while requests
// come in.
func (rp *Repo) SinceAsked() time.Duration { return rp.lock.SinceAsked() }
