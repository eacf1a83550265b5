package fsres

// GrepIndexMemory returns the memory grep's trigram indexes and the texts kept beside them hold, all
// roots together (the indexes never above their cap, 1 GiB; the texts never above 512 MiB), and the
// bytes of text they index; metrics report both.
func (f *Files) GrepIndexMemory() (memory, text int64) {
	if f.grams == nil {
		return 0, 0
	}
	for _, st := range f.grams.Stats() {
		if st.State == "ready" {
			memory += st.Bytes + f.keptBytes(st.Root)
			text += st.TextBytes
		}
	}
	return memory, text
}
