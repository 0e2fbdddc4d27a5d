// Package pngenc is the tasks' PNG encoder: png.Encoder with its buffers
// and zlib compressor kept between encodes. A fresh encoder allocates and
// clears about 1 MB of compressor state per image, which costs as much as
// encoding a small tile; reused state is reset instead, and the bytes are
// the same.
package pngenc

import (
	"bytes"
	"image"
	"image/png"
	"sync"
)

// pool holds idle encoder buffers for every task.
var pool bufferPool

type bufferPool struct{ p sync.Pool }

// Get implements png.EncoderBufferPool: nil when none is idle.
func (b *bufferPool) Get() *png.EncoderBuffer {
	e, _ := b.p.Get().(*png.EncoderBuffer)
	return e
}

// Put implements png.EncoderBufferPool.
func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// Encoder is a png.Encoder at level that reuses the shared buffers.
func Encoder(level png.CompressionLevel) *png.Encoder {
	return &png.Encoder{CompressionLevel: level, BufferPool: &pool}
}

// Encode writes img as PNG at level.
func Encode(img image.Image, level png.CompressionLevel) ([]byte, error) {
	var buf bytes.Buffer
	if err := Encoder(level).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
