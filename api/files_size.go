package api

import (
	"context"
	"encoding/json"
	"image"
	_ "image/gif"  // GIF uploads
	_ "image/jpeg" // JPEG uploads
	_ "image/png"  // PNG uploads

	"gocloud.dev/blob"
	_ "golang.org/x/image/bmp"  // BMP uploads
	_ "golang.org/x/image/webp" // WebP uploads
)

// imageSizeData reads the pixel size of a stored image from its header and
// returns it as the file's data ({"width","height"}), so a task that bounds
// image sides can refuse an upload at submit; "null" when the bytes are not
// an image this service decodes.
func imageSizeData(ctx context.Context, bucket *blob.Bucket, key string) string {
	r, err := bucket.NewReader(ctx, key, nil)
	if err != nil {
		return "null"
	}
	defer r.Close()
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return "null"
	}
	b, _ := json.Marshal(map[string]int{"width": cfg.Width, "height": cfg.Height})
	return string(b)
}
