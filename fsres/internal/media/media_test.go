package media

import (
	"testing"

	"github.com/gabriel-vasile/mimetype"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestOf(t *testing.T) {
	for _, tt := range []struct {
		name, head string
		want       Kind
	}{
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", Image},
		{"jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF\x00", Image},
		{"gif", "GIF89a\x01\x00\x01\x00\x00\x00", Image},
		{"webp", "RIFF\x24\x00\x00\x00WEBPVP8 ", Image},
		{"wav", "RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00", Audio},
		{"mp3", "\xff\xfb\x90\x00", Audio},
		{"flac", "fLaC\x00\x00\x00\x22", Audio},
		{"svg", `<svg xmlns="http://www.w3.org/2000/svg"></svg>`, None},
		{"pdf", "%PDF-1.7\n", None},
		{"zip", "PK\x03\x04\x14\x00\x00\x00", None},
		{"text", "hello\n", None},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := mimetype.Detect([]byte(tt.head)).String()
			if got := Of(m); got != tt.want {
				t.Errorf("Of(%q) = %q, want %q", m, got, tt.want)
			}
		})
	}
	if got := Of("image/png; charset=binary"); got != Image {
		t.Errorf("parameters: got %q", got)
	}
	if got := Of("not a type;;"); got != None {
		t.Errorf("garbage: got %q", got)
	}
}

func TestBlock(t *testing.T) {
	data := []byte{1, 2, 3}
	if b, ok := Image.Block(data, "image/png").(*mcp.ImageContent); !ok || b.MIMEType != "image/png" || string(b.Data) != string(data) {
		t.Errorf("Image.Block = %#v", b)
	}
	if b, ok := Audio.Block(data, "audio/ogg; codecs=vorbis").(*mcp.AudioContent); !ok || b.MIMEType != "audio/ogg" {
		t.Errorf("Audio.Block = %#v", b)
	}
}
