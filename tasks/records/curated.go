package records

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"sync"
	"time"

	"gocloud.dev/blob"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// The curated library: moodboards and fabrics the service ships, drawn by
// this package's own code, written by `taskplatform migrate` and `dev`
// (SeedCurated) and readable by every account (GET /v1/refs/{kind}?curated=true).

// curatedBoard is one moodboard of the library.
type curatedBoard struct {
	id, name, description string
	images                []motif
}

var curatedBoards = []curatedBoard{
	{"mb_cur_coastal", "Coastal linen", "Navy stripes, sand linen and sky: a seaside summer.", []motif{
		stripes(
			"#1B2A4A",
			"#FAFAF7",
			24,
		), cloth("plain_weave", "#D6C3A1"), solid("#8EC6EA"), check("#1B2A4A", "#8EC6EA", 40), cloth("twill", "#1B2A4A")}},
	{"mb_cur_desert", "Desert terracotta", "Sun-baked clay, rust and olive on bone.", []motif{
		cloth(
			"canvas",
			"#C3643F",
		), gradient("#E3CBA8", "#A4471F"), stripes("#6D6B2E", "#F1E6D2", 30), dots("#F1E6D2", "#C3643F", 48), solid(
			"#A4471F")}},
	{"mb_cur_nordic", "Nordic winter", "Charcoal and grey knits with ivory and a forest accent.", []motif{
		cloth(
			"rib",
			"#8A8D8F",
		), check("#36393B", "#F3EBD7", 32), solid("#1F4A2C"), cloth("herringbone", "#36393B"), stripes("#F3EBD7", "#8A8D8F",
			20)}},
	{"mb_cur_tropical", "Tropical print", "Emerald, coral, yellow and teal prints.", []motif{
		dots(
			"#0F7A50",
			"#F2735E",
			56,
		), stripes("#F6D52A", "#137C7B", 28), gradient("#137C7B", "#0F7A50"), check("#F2735E", "#FAFAF7", 36), dots(
			"#F6D52A", "#0F7A50", 40)}},
	{"mb_cur_parisian", "Parisian classic", "Breton black and ivory, camel twill and burgundy.", []motif{
		stripes(
			"#111111",
			"#F3EBD7",
			18,
		), cloth("twill", "#B9895A"), solid("#6D1A2C"), check("#111111", "#F3EBD7", 12), cloth("satin", "#111111")}},
	{"mb_cur_pastel", "Pastel spring", "Blush, mint, lavender and lemon.", []motif{
		solid(
			"#E8B4B0",
		), stripes("#A8DDC0", "#FAFAF7", 26), dots("#B9A6D8", "#F8EE76", 44), gradient("#E8B4B0", "#B9A6D8"), check(
			"#A8DDC0", "#F8EE76", 30)}},
}

// curatedFabricDef is one fabric of the library.
type curatedFabricDef struct {
	id, name, colour string
	facts            FabricFacts
}

// facts are a library fabric's facts.
func facts(gsm int, composition []Fibre, construction string) FabricFacts {
	return FabricFacts{WeightGSM: gsm, Composition: composition, Construction: construction}
}

func comp(pairs ...any) []Fibre {
	var out []Fibre
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Fibre{Fibre: pairs[i].(string), Percent: float64(pairs[i+1].(int))})
	}
	return out
}

var curatedFabrics = []curatedFabricDef{
	{"fb_cur_poplin_white", "Cotton poplin, optic white", "#F7F6F2", facts(110, comp("cotton", 100), "poplin")},
	{"fb_cur_oxford_blue", "Oxford shirting, pale blue", "#AFC8E4", facts(140, comp("cotton", 100), "oxford")},
	{"fb_cur_denim_indigo", "Rigid denim, indigo", "#2B3A5C", facts(400, comp("cotton", 100), "denim")},
	{
		"fb_cur_stretch_denim",
		"Stretch denim, mid blue",
		"#4E6C92",
		facts(340, comp("cotton", 98, "elastane", 2), "denim"),
	},
	{"fb_cur_linen_natural", "Linen, natural", "#CFC2A8", facts(185, comp("linen", 100), "plain_weave")},
	{
		"fb_cur_linen_cotton_sage",
		"Linen-cotton, sage",
		"#9CAE8B",
		facts(200, comp("linen", 55, "cotton", 45), "plain_weave"),
	},
	{
		"fb_cur_canvas_ecru",
		"Organic cotton canvas, ecru",
		"#E6DCC4",
		facts(340, comp("organic_cotton", 100), "canvas"),
	},
	{
		"fb_cur_chino_camel",
		"Cotton twill chino, camel",
		"#B9895A",
		facts(260, comp("cotton", 97, "elastane", 3), "twill"),
	},
	{"fb_cur_gabardine_navy", "Wool gabardine, navy", "#1B2A4A", facts(240, comp("wool", 100), "gabardine")},
	{"fb_cur_flannel_grey", "Wool flannel, grey", "#8A8D8F", facts(290, comp("wool", 100), "twill")},
	{
		"fb_cur_herringbone_charcoal",
		"Wool herringbone, charcoal",
		"#36393B",
		facts(330, comp("wool", 80, "polyamide", 20), "herringbone"),
	},
	{"fb_cur_satin_black", "Silk satin, black", "#151515", facts(90, comp("silk", 100), "satin")},
	{"fb_cur_crepe_burgundy", "Viscose crepe, burgundy", "#6D1A2C", facts(150, comp("viscose", 100), "crepe")},
	{
		"fb_cur_jersey_white",
		"Organic cotton jersey, white",
		"#F7F6F2",
		facts(180, comp("organic_cotton", 95, "elastane", 5), "jersey"),
	},
	{
		"fb_cur_jersey_black",
		"Lyocell jersey, black",
		"#161616",
		facts(170, comp("lyocell", 92, "elastane", 8), "jersey"),
	},
	{"fb_cur_rib_cream", "Merino rib, cream", "#EDE0C2", facts(240, comp("merino", 100), "rib")},
	{"fb_cur_pique_forest", "Cotton piqué, forest", "#1F4A2C", facts(210, comp("cotton", 100), "pique")},
	{
		"fb_cur_fleece_grey",
		"Recycled fleece, grey",
		"#8A8D8F",
		facts(300, comp("recycled_polyester", 100), "fleece"),
	},
	{
		"fb_cur_french_terry_blush",
		"French terry, blush",
		"#E8B4B0",
		facts(280, comp("cotton", 80, "recycled_polyester", 20), "french_terry"),
	},
	{"fb_cur_ripstop_olive", "Nylon ripstop, olive", "#6D6B2E", facts(80, comp("polyamide", 100), "ripstop")},
	{"fb_cur_corduroy_rust", "Cotton corduroy, rust", "#A4471F", facts(320, comp("cotton", 100), "corduroy")},
	{"fb_cur_velvet_emerald", "Cotton velvet, emerald", "#0F7A50", facts(300, comp("cotton", 100), "velvet")},
}

// The sides of the library's images.
const (
	curatedImageSide  = 480
	curatedSwatchSide = 900
)

// boardImages draws a curated board's images.
func (b curatedBoard) draw() []image.Image {
	out := make([]image.Image, len(b.images))
	for i, m := range b.images {
		out[i] = m(curatedImageSide)
	}
	return out
}

// lookID is the file id of look i of a curated board.
func (b curatedBoard) lookID(i int) string { return fmt.Sprintf("%s_look%d", b.id, i) }

// lookURLs are the relative addresses of a curated board's looks.
func (b curatedBoard) lookURLs() []string {
	out := make([]string, len(b.images))
	for i := range b.images {
		out[i] = filePath(b.lookID(i), "jpg")
	}
	return out
}

// curatedAnalyses are the curated boards' analyses, computed once.
var curatedAnalyses = sync.OnceValue(func() map[string]Analysis {
	out := map[string]Analysis{}
	for _, b := range curatedBoards {
		out[b.id] = analyse(b.draw(), b.lookURLs(), b.lookURLs())
	}
	return out
})

// curatedMoodboard is a curated moodboard read from code (no env: a
// catalogue example).
func curatedMoodboard(ref string) (*Moodboard, bool) {
	for _, b := range curatedBoards {
		if ref == KindMoodboard+":"+b.id {
			a := curatedAnalyses()[b.id]
			return &Moodboard{Handle: ref, Name: b.name, Curated: true, Status: models.RecordReady, Analysis: &a}, true
		}
	}
	return nil, false
}

// fields are a curated fabric's record fields.
func (f curatedFabricDef) fields() FabricFields {
	out := FabricFields{Facts: f.facts, Code: fabricCode(f.facts), WeightClass: weightClass(f.facts.WeightGSM),
		WeightOz: round(float64(f.facts.WeightGSM)/33.906, 1), SwatchURL: new(filePath(f.id+"_swatch", "jpg"))}
	out.Colour = &KitColour{Hex: f.colour, Name: nearestName(labOfHex(f.colour))}
	out.ColourSource = colourGiven
	return out
}

// curatedFabric is a curated fabric read from code (no env).
func curatedFabric(ref string) (*Fabric, bool) {
	for _, f := range curatedFabrics {
		if ref == KindFabric+":"+f.id {
			return &Fabric{
				Handle:       ref,
				Name:         f.name,
				Curated:      true,
				Status:       models.RecordReady,
				FabricFields: f.fields(),
			}, true
		}
	}
	return nil, false
}

// putFile stores data as the file id of a record (owner names it).
func putFile(ctx context.Context, env tasks.Env, id, ext, mediaType, owner string, data []byte, w, h int) error {
	key := "records/" + id + "." + ext
	if err := env.Blob.WriteAll(ctx, key, data, nil); err != nil {
		return fmt.Errorf("store %s: %w", id, err)
	}
	size, _ := json.Marshal(obj{"width": w, "height": h})
	return models.PutRecordFile(
		ctx,
		env.DB,
		&models.File{ID: id, MediaType: mediaType, BlobKey: key, Size: int64(len(data)), SHA256: models.Digest(data),
			Data: string(size), ExternalID: owner},
		env.Time(),
	)
}

// write stores one curated moodboard, drawn by lib: its looks, its
// collage and its record.
func (b curatedBoard) write(ctx context.Context, env tasks.Env, lib *Library, at time.Time) error {
	files, err := lib.files(KindMoodboard+":"+b.id, b.files)
	if err != nil {
		return err
	}
	if err := putFiles(ctx, env, KindMoodboard+":"+b.id, files); err != nil {
		return err
	}
	a := curatedAnalyses()[b.id]
	return writeCurated(ctx, env.DB, KindMoodboard, b.id, b.name, b.id+"_collage",
		obj{"description": b.description, "images": b.lookURLs()}, a, at)
}

// files draws one curated moodboard's files: its looks and its collage.
func (b curatedBoard) files() ([]drawnFile, error) {
	imgs := b.draw()
	var out []drawnFile
	for j, img := range imgs {
		data, err := encodeJPEG(img)
		if err != nil {
			return nil, err
		}
		out = append(out, drawnFile{b.lookID(j), "jpg", "image/jpeg", data, img.Bounds().Dx(), img.Bounds().Dy()})
	}
	col := collage(b.name, b.description, imgs)
	data, err := encodeJPEG(col)
	if err != nil {
		return nil, err
	}
	return append(out, drawnFile{b.id + "_collage", "jpg", "image/jpeg", data, col.Bounds().Dx(),
		col.Bounds().Dy()}), nil
}

// write stores one curated fabric, drawn by lib: its swatch, its swatch
// card and its record.
func (f curatedFabricDef) write(ctx context.Context, env tasks.Env, lib *Library, at time.Time) error {
	files, err := lib.files(KindFabric+":"+f.id, f.files)
	if err != nil {
		return err
	}
	if err := putFiles(ctx, env, KindFabric+":"+f.id, files); err != nil {
		return err
	}
	return writeCurated(ctx, env.DB, KindFabric, f.id, f.name, f.id+"_card", f.fields(), nil, at)
}

// files draws one curated fabric's files: its swatch and its swatch card.
func (f curatedFabricDef) files() ([]drawnFile, error) {
	sw := recordread.Texture(f.facts.Construction, hexC(f.colour), curatedSwatchSide)
	swatch, err := encodeJPEG(sw)
	if err != nil {
		return nil, err
	}
	cardImg := swatchCard(f.name, f.fields(), sw)
	card, err := encodePNG(cardImg)
	if err != nil {
		return nil, err
	}
	return []drawnFile{
		{f.id + "_swatch", "jpg", "image/jpeg", swatch, sw.Bounds().Dx(), sw.Bounds().Dy()},
		{f.id + "_card", "png", "image/png", card, cardImg.Bounds().Dx(), cardImg.Bounds().Dy()},
	}, nil
}

// writeCurated writes one ready curated record.
func writeCurated(
	ctx context.Context,
	db *gorm.DB,
	kind, id, name, preview string,
	fields, analysis any,
	at time.Time,
) error {
	f, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	var a []byte
	if analysis != nil {
		if a, err = json.Marshal(analysis); err != nil {
			return err
		}
	}
	return models.CreateRecord(
		ctx,
		db,
		&models.Record{ID: id, Kind: kind, UserID: models.CuratedUser, Name: name, Status: models.RecordReady,
			Fields: string(f), Analysis: string(a), PreviewFileID: preview},
		at,
	)
}

// CuratedHandles lists the handles of the curated library by kind, in
// library order.
func CuratedHandles() map[string][]string {
	out := map[string][]string{}
	for _, b := range curatedBoards {
		out[KindMoodboard] = append(out[KindMoodboard], KindMoodboard+":"+b.id)
	}
	for _, f := range curatedFabrics {
		out[KindFabric] = append(out[KindFabric], KindFabric+":"+f.id)
	}
	return out
}

// SeedCurated writes the curated library — moodboards with their looks,
// collage and analysis, fabrics with their swatch and swatch card — into
// db and bucket. Records already there are kept (one query finds them), so
// running it again (each `taskplatform migrate` and `dev`) only adds what
// is missing. The entries are drawn on every CPU at once: drawing them is
// the seconds of a first start.
func SeedCurated(ctx context.Context, db *gorm.DB, bucket *blob.Bucket) error {
	return new(Library).Seed(ctx, db, bucket)
}

// Seed writes the curated library into db and bucket as SeedCurated does,
// drawing only the entries this Library has not drawn before.
func (l *Library) Seed(ctx context.Context, db *gorm.DB, bucket *blob.Bucket) error {
	env := tasks.Env{UserID: models.CuratedUser, DB: db, Blob: bucket}
	var have []string
	if err := db.WithContext(ctx).Model(&models.Record{}).
		Where("user_id = ? AND kind IN ?", models.CuratedUser, []string{KindMoodboard, KindFabric}).
		Pluck("id", &have).Error; err != nil {
		return fmt.Errorf("read the curated library: %w", err)
	}
	known := map[string]bool{}
	for _, id := range have {
		known[id] = true
	}
	// Older library entries first, so listings (newest first) show them in
	// the order above: each entry's time is fixed by its place.
	at := time.Now().UTC().Add(-time.Duration(len(curatedBoards)+len(curatedFabrics)) * time.Second)
	next := func() time.Time { at = at.Add(time.Second); return at }
	var writes []func(context.Context) error
	for i := len(curatedBoards) - 1; i >= 0; i-- {
		b, when := curatedBoards[i], next()
		if !known[b.id] {
			writes = append(writes, func(ctx context.Context) error { return b.write(ctx, env, l, when) })
		}
	}
	for i := len(curatedFabrics) - 1; i >= 0; i-- {
		f, when := curatedFabrics[i], next()
		if !known[f.id] {
			writes = append(writes, func(ctx context.Context) error { return f.write(ctx, env, l, when) })
		}
	}
	return onEveryCPU(ctx, writes)
}
