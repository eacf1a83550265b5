package packread

import "testing"

func TestSharedPrefix(t *testing.T) {
	objs := []synthObj{
		{name: 0x09, typ: Blob, data: []byte("a"), declared: -1, base: -1},
		{name: 0x03, typ: Blob, data: []byte("b"), declared: -1, base: -1},
		{name: 0x05, typ: Blob, data: []byte("c"), declared: -1, base: -1},
	}
	p, x := buildPack(t, objs, false)
	r := Open(writePack(t, p, x))
	defer r.Close()
	if n := r.Count(); n != 3 {
		t.Errorf("Count = %d, want 3", n)
	}
	near := synthName(0x03)
	near[19] = 0x04 // "0303…0304": 38 digits in common with 0x03's name, then 0 against 3
	for _, tt := range []struct {
		name [20]byte
		want int
	}{
		{synthName(0x03), 1}, // itself does not count; "05…" and "09…" share the leading 0
		{synthName(0x09), 1},
		{near, 39},
		{synthName(0xff), 0},
	} {
		if got := r.SharedPrefix(tt.name); got != tt.want {
			t.Errorf("SharedPrefix(%x) = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestSharedHex(t *testing.T) {
	for _, tt := range []struct {
		a, b []byte
		want int
	}{
		{[]byte{0x12, 0x34}, []byte{0x12, 0x35}, 3},
		{[]byte{0x12, 0x34}, []byte{0x13, 0x34}, 1},
		{[]byte{0x12, 0x34}, []byte{0x22, 0x34}, 0},
		{[]byte{0x12, 0x34}, []byte{0x12, 0x34}, 4},
	} {
		if got := SharedHex(tt.a, tt.b); got != tt.want {
			t.Errorf("SharedHex(%x, %x) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
