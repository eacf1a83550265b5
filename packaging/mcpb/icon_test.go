package mcpb

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// drawIcon draws grove's icon: three green trees, tallest in the middle, on
// a round dark-green tile. Our own drawing, no artwork from elsewhere.
func drawIcon(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	tile := color.NRGBA{0x1f, 0x4d, 0x2c, 0xff}
	trunk := color.NRGBA{0x7a, 0x4a, 0x24, 0xff}
	leaves := []color.NRGBA{{0x5c, 0xb8, 0x5c, 0xff}, {0x8f, 0xd9, 0x6b, 0xff}, {0x5c, 0xb8, 0x5c, 0xff}}
	s := float64(size)
	r := s / 2
	for y := range size {
		for x := range size {
			dx, dy := float64(x)+0.5-r, float64(y)+0.5-r
			if dx*dx+dy*dy <= (r-1)*(r-1) {
				img.SetNRGBA(x, y, tile)
			}
		}
	}
	// Each tree: centre x, top y, base y, half width at the base (fractions of size).
	trees := [][4]float64{{0.29, 0.30, 0.70, 0.15}, {0.50, 0.16, 0.72, 0.19}, {0.71, 0.30, 0.70, 0.15}}
	for i, tr := range trees {
		cx, top, base, half := tr[0]*s, tr[1]*s, tr[2]*s, tr[3]*s
		for y := int(top); y < int(base); y++ {
			w := half * (float64(y) - top) / (base - top)
			for x := int(cx - w); x <= int(cx+w); x++ {
				img.SetNRGBA(x, y, leaves[i])
			}
		}
		for y := int(base); y < int(base+0.09*s); y++ {
			for x := int(cx - 0.025*s); x <= int(cx+0.025*s); x++ {
				img.SetNRGBA(x, y, trunk)
			}
		}
	}
	return img
}

// iconSize is what Claude Desktop recommends (mcpb validate says so).
const iconSize = 512

func TestIcon(t *testing.T) {
	want := drawIcon(iconSize)
	if *update {
		var b bytes.Buffer
		if err := png.Encode(&b, want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("icon.png", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open("icon.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil {
		t.Fatalf("icon.png: %v", err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("icon.png is %v, want %v", got.Bounds(), want.Bounds())
	}
	for y := range iconSize {
		for x := range iconSize {
			if g, w := color.NRGBAModel.Convert(got.At(x, y)), want.NRGBAAt(x, y); g != w {
				t.Fatalf("icon.png differs from drawIcon at (%d,%d): %v, want %v; run with -update", x, y, g, w)
			}
		}
	}
}
