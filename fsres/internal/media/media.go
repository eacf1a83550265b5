// Package media decides which files a model is shown as images or played as
// audio, by the MIME type sniffed from their content, and builds the content
// block that carries one.
//
//	if k := media.Of(mimeType); k != media.None {
//		block := k.Block(data, mimeType) // *mcp.ImageContent or *mcp.AudioContent
//	}
//
// Only formats that MCP clients and models commonly decode qualify: PNG,
// JPEG, GIF and WebP images; WAV, MP3, Ogg and FLAC audio. SVG is text and
// stays text.
package media

import (
	"mime"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Kind is how a file reaches a model.
type Kind string

const (
	None  Kind = ""
	Image Kind = "image"
	Audio Kind = "audio"
)

// DefaultMaxBytes is the largest image or audio file sent by default: a few
// screenshots fit in a model's context, a video-sized file does not.
const DefaultMaxBytes = 5 << 20

// kinds are the MIME types (as gabriel-vasile/mimetype names them) sent as
// media.
var kinds = map[string]Kind{
	"image/png": Image, "image/jpeg": Image, "image/gif": Image, "image/webp": Image,
	"audio/wav": Audio, "audio/mpeg": Audio, "audio/ogg": Audio, "audio/flac": Audio,
}

// Of returns the kind of a file whose sniffed MIME type is mimeType
// (parameters such as "; charset=" are ignored).
func Of(mimeType string) Kind {
	t, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		return None
	}
	return kinds[t]
}

// Block returns the content block that carries data: base64 on the wire, as
// the SDK encodes a []byte.
func (k Kind) Block(data []byte, mimeType string) mcp.Content {
	t, _, _ := mime.ParseMediaType(mimeType)
	if k == Audio {
		return &mcp.AudioContent{Data: data, MIMEType: t}
	}
	return &mcp.ImageContent{Data: data, MIMEType: t}
}
