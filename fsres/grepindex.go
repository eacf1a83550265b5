package fsres

// GrepIndexMemory returns the memory grep's trigram indexes hold, all roots together (never above
// the cap of all indexes, 1 GiB), and the bytes of text they index; metrics report both.
func (f *Files) GrepIndexMemory() (memory, text int64) {
	if f.grams == nil {
		return 0, 0
	}
	for _, st := range f.grams.Stats() {
		if st.State == "ready" {
			memory += st.Bytes
			text += st.TextBytes
		}
	}
	return memory, text
}
