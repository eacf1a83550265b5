package gittools

// OpenCount returns how many repositories are held open, for the server's
// metrics.
func (r *Repos) OpenCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.repos)
}
