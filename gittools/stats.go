package gittools

// OpenCount returns how many repositories are held open, for the server's
// metrics.
func (r *Repos) OpenCount() int {
	return r.repos.Len()
}
