// Package trigram keeps an in-memory trigram index of each root that grep searches, so that a warm
// grep reads only the files that can match. It owns the index (which files hold which trigrams),
// the planning of a regular expression into a trigram query, and the index's life: built in the
// background after a root's first grep, kept current from the file watcher's feed, dropped when idle.
//
//	ix := trigram.NewIndexes(trigram.Options{Watch: subscribe})
//	c, err := ix.Search(ctx, root, trigram.DirTree{FS: fsys, Matcher: m, MaxRead: limit}, trigram.Plan(expr))
//	if c == nil { /* no index ready: search the tree as without one */ }
//	c.WalkMay(".", func(p string, may bool) error { … }) // the tree's files in walk order, as the index knows them
//	c.May("src/a.go")                                    // false: the file holds no match
//
// fsres's grep uses it through the grep engine's candidate hook: the index's file list (kept current,
// so it equals a walk of the tree) replaces the walk, and files ruled out are counted as searched
// without being read. Skipped files (binary, too large) stay candidates, so the engine counts them as
// it would without an index, and the answer is the same.
//
// # Queries
//
// [Plan] follows the method of Russ Cox's "Regular Expression Matching with a Trigram Index" (2012):
// for each sub-expression it computes whether it can match the empty string, the exact set of
// strings it matches when small, otherwise sets of strings every match starts and ends with, and a
// boolean query (AND/OR of trigrams) every text holding a match satisfies; sets that grow too large
// are turned into trigrams and cut short. Text is indexed with ASCII letters folded to lower case,
// so (?i) costs nothing; other case variants (K, ſ) become alternatives. A rune that may stand for
// invalid UTF-8 (U+FFFD) or a large class counts as any character. When nothing can be extracted
// the query is [OpAll] and the caller searches every file. The query only narrows: every file it
// drops provably holds no match, and candidates are verified by the real matcher.
//
// # Memory
//
// A build appends each file's id to the delta-varint list of each of its distinct trigrams, in one
// pass, then seals the lists into one byte array (about a fifth to a third of the text's size on
// source code). Binary files and files over the grep size cap are recorded as skipped, not indexed.
// A root's index may not pass [Options.MaxBytes], nor all of them [Options.Total]; past either it
// is not built (or is dropped), and [Indexes.Stats] says so. Files changed later get new ids whose
// lists go to a small overlay; when the overlay or the dead ids pass a quarter of the index, it is
// rebuilt.
//
// # Freshness
//
// An index never answers for a state older than the call. Before each query, [Feed.Sync] (watch.Feed)
// passes a barrier: it creates a cookie file in a directory of grove's own, outside every root, that
// the same inotify instance watches, and waits until the watcher has handled the cookie's event.
// inotify queues one instance's events in order, and a write(2), rename(2) or unlink(2) queues its
// event before it returns; so every change made before the call is handled before the cookie, and
// Sync returns its path. The query then reads those files again (a directory is walked again) before
// planning candidates. When events may have been lost (ErrEventOverflow, a watch limit, a walk of the
// roots under way, kqueue's unordered events on macOS), Sync says so: the index is dropped, the grep
// searches the tree, and a build starts in the background. A build calls Sync first and leaves every
// later change in the feed, so the first grep after it applies what changed during the build; and it
// keeps its index only if every directory it walked was watched ([Feed.Cover]). A change to the
// ignore rules (a .gitignore, .git/index, .git/info) makes the next build walk the tree again for its
// file list, keeping the content it has.
//
// Not seen: writes through a shared memory mapping, which inotify does not report (a grep without an
// index reads them), and changes to ignore sources outside the tree (the global excludes file), which
// the grep walk's cached rules miss alike.
//
// # Life
//
// An index is built after the first grep of its root whose pattern has trigrams, on two reading
// goroutines, while greps search the tree. It is dropped when no grep has run on its root for
// [Options.Idle] (counted from the end of its build), when events are lost, and when it has worn
// (then rebuilt); a root past the memory cap is not indexed until its state is dropped as idle.
package trigram
