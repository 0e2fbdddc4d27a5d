package photoshoot

import (
	"image"
	"math"
	"sync"
)

// backdropCache keeps the last few scene backdrops drawn, by scene and
// size: the shots of one job share their backdrop, which takes most of a
// shot's time to draw (about half a second at 2048 px). Callers get a copy.
var backdropCache = struct {
	sync.Mutex
	keys []backdropKey
	imgs map[backdropKey]*image.NRGBA
}{imgs: map[backdropKey]*image.NRGBA{}}

// cachedBackdrops bounds the cache: 4 backdrops of 2048 × 2048 px are 64 MB.
const cachedBackdrops = 4

type backdropKey struct {
	id        string
	w, h, cam int
}

// sceneBackdrop is the scene b drawn at w × h for a camera cam cm above
// its floor (to the centimetre), from the cache when it is there; the image
// returned is the caller's own.
func sceneBackdrop(b Background, w, h int, cam float64) *image.NRGBA {
	k := backdropKey{b.ID, w, h, int(math.Round(cam))}
	backdropCache.Lock()
	img, ok := backdropCache.imgs[k]
	backdropCache.Unlock()
	if !ok {
		img = b.draw(w, h, float64(k.cam))
		backdropCache.Lock()
		if _, there := backdropCache.imgs[k]; !there {
			if len(backdropCache.keys) == cachedBackdrops {
				delete(backdropCache.imgs, backdropCache.keys[0])
				backdropCache.keys = backdropCache.keys[1:]
			}
			backdropCache.keys = append(backdropCache.keys, k)
			backdropCache.imgs[k] = img
		}
		backdropCache.Unlock()
	}
	out := image.NewNRGBA(img.Rect)
	copy(out.Pix, img.Pix)
	return out
}
