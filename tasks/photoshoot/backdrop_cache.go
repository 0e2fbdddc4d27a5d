package photoshoot

import (
	"image"
	"math"
	"sync"
)

// backdropCache keeps the last few scene backdrops drawn, by scene and
// size: the shots of one job share their backdrop, which takes most of a
// shot's time to draw (about half a second at 2048 px). One drawing of a
// backdrop runs at a time: shots started together wait for the first
// one's rather than each drawing it. Callers get a copy.
var backdropCache = struct {
	sync.Mutex
	keys []backdropKey
	imgs map[backdropKey]*backdropEntry
}{imgs: map[backdropKey]*backdropEntry{}}

// cachedBackdrops bounds the cache: 4 backdrops of 2048 × 2048 px are 64 MB.
const cachedBackdrops = 4

type backdropKey struct {
	id        string
	w, h, cam int
}

// backdropEntry is a backdrop drawn or being drawn; done is closed when
// img is set.
type backdropEntry struct {
	done chan struct{}
	img  *image.NRGBA
}

// sceneBackdrop is the scene b drawn at w × h for a camera cam cm above
// its floor (to the centimetre), from the cache when it is there; the image
// returned is the caller's own.
func sceneBackdrop(b Background, w, h int, cam float64) *image.NRGBA {
	k := backdropKey{b.ID, w, h, int(math.Round(cam))}
	backdropCache.Lock()
	e, ok := backdropCache.imgs[k]
	if !ok {
		e = &backdropEntry{done: make(chan struct{})}
		if len(backdropCache.keys) == cachedBackdrops {
			delete(backdropCache.imgs, backdropCache.keys[0])
			backdropCache.keys = backdropCache.keys[1:]
		}
		backdropCache.keys = append(backdropCache.keys, k)
		backdropCache.imgs[k] = e
	}
	backdropCache.Unlock()
	if ok {
		<-e.done
	} else {
		e.draw(b, k)
	}
	out := image.NewNRGBA(e.img.Rect)
	copy(out.Pix, e.img.Pix)
	return out
}

// draw draws the backdrop of k and wakes the shots waiting for it.
func (e *backdropEntry) draw(b Background, k backdropKey) {
	defer close(e.done)
	e.img = b.draw(k.w, k.h, float64(k.cam))
}
