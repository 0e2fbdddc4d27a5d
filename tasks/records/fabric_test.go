package records

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// TestFabricColourIsTheCallers renders fabric cards from inputs whose
// colour is known: the colour sent is the fabric's (by hex or by name),
// a swatch photo is measured only when no colour is sent, and with
// neither the fabric has no colour. The card's swatch shows the colour.
func TestFabricColourIsTheCallers(t *testing.T) {
	photo, err := encodePNG(solid("#B9895A")(256))
	require.NoError(t, err)
	files := taskstest.Files{"file:camel": photo}
	facts := `"facts":{"weight_gsm":210,"composition":[{"fibre":"cotton","percent":100}],"construction":"pique"}`
	for _, tc := range []struct {
		name, extra, hex, source string
	}{
		{"named colour", `,"colour":"forest"`, "#1F4A2C", colourGiven},
		{"hex colour", `,"colour":"#c3643f"`, "#C3643F", colourGiven},
		{"colour beats photo", `,"colour":"navy","swatch":"file:camel"`, "#1B2A4A", colourGiven},
		{"photo measured", `,"swatch":"file:camel"`, "#B9895A", colourMeasured},
		{"neither", ``, "", colourNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustLookup(t, "fabric.create")
			in, err := d.Validate([]byte(`{"name":"Piqué",` + facts + tc.extra + `}`))
			require.NoError(t, err)
			out, err := d.Runner.Step(tasks.WithLoader(context.Background(), files), in, 0)
			require.NoError(t, err)
			meta, _ := json.Marshal(out.Meta)
			var data struct {
				Colour *struct {
					Hex string `json:"hex"`
				} `json:"colour"`
				Source string `json:"colour_source"`
			}
			require.NoError(t, json.Unmarshal(meta, &data))
			require.Equal(t, tc.source, data.Source)
			dump(t, "fabric_"+strings.ReplaceAll(tc.name, " ", "_")+".png", out.Data)
			card, err := png.Decode(bytes.NewReader(out.Data))
			require.NoError(t, err)
			if tc.hex == "" {
				require.Nil(t, data.Colour)
				return
			}
			require.NotNil(t, data.Colour)
			require.Equal(t, tc.hex, data.Colour.Hex)
			if tc.source == colourGiven && tc.name != "colour beats photo" {
				mean := meanLab(card, image.Rect(200, 200, 1000, 800))
				require.Less(t, colour.DeltaE(mean, labOfHex(tc.hex)), 8.0, "the drawn swatch is the colour sent")
			}
		})
	}
}

// TestFabricColourRefusesUnknownNames answers invalid_colour at submit,
// naming colour, for words that name no colour_name entry and for a
// malformed hex.
func TestFabricColourRefusesUnknownNames(t *testing.T) {
	d := mustLookup(t, "fabric.create")
	for _, c := range []string{"greenish", "sparkly", "#12345"} {
		in, err := d.Validate([]byte(`{"name":"x","facts":{"weight_gsm":210,"composition":[{"fibre":"cotton",` +
			`"percent":100}],"construction":"pique"},"colour":"` + c + `"}`))
		require.NoError(t, err)
		err = d.Runner.(tasks.Admitter).Admit(context.Background(), tasks.Env{}, in)
		e := apierr.As(err)
		require.Equal(t, apierr.InvalidColour, e.Code, c)
		require.Equal(t, "colour", *e.Field, c)
	}
}

// TestFabricColourReadsFreeNames: "forest green", "Bottle green" and
// "dark green" are all the colour_name forest (#1F4A2C), and the data says
// what was sent and what it was read as.
func TestFabricColourReadsFreeNames(t *testing.T) {
	d := mustLookup(t, "fabric.create")
	for _, c := range []string{"forest green", "Bottle green", "dark green"} {
		in, err := d.Validate([]byte(`{"name":"x","facts":{"weight_gsm":210,"composition":[{"fibre":"cotton",` +
			`"percent":100}],"construction":"pique"},"colour":"` + c + `"}`))
		require.NoError(t, err)
		out, err := d.Runner.Step(context.Background(), in, 0)
		require.NoError(t, err)
		meta, _ := json.Marshal(out.Meta)
		var data struct {
			Colour struct{ Hex, Name string } `json:"colour"`
			Sent   string                     `json:"colour_sent"`
		}
		require.NoError(t, json.Unmarshal(meta, &data))
		require.Equal(t, "forest", data.Colour.Name, c)
		require.Equal(t, "#1F4A2C", data.Colour.Hex, c)
		require.Equal(t, c, data.Sent)
	}
}

// dump writes an output under $TP_DUMP, when set, for a person to look at.
func dump(t *testing.T, name string, data []byte) {
	if dir := os.Getenv("TP_DUMP"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
}

// meanLab is the mean CIELAB colour of r of img.
func meanLab(img image.Image, r image.Rectangle) colour.Lab {
	var sum colour.Lab
	n := 0.0
	for y := r.Min.Y; y < r.Max.Y; y += 4 {
		for x := r.Min.X; x < r.Max.X; x += 4 {
			c := image.NewRGBA(image.Rect(0, 0, 1, 1))
			c.Set(0, 0, img.At(x, y))
			l := colour.LabOf8(c.Pix[0], c.Pix[1], c.Pix[2])
			sum.L, sum.A, sum.B = sum.L+l.L, sum.A+l.A, sum.B+l.B
			n++
		}
	}
	return sum.Scale(1 / n)
}

// TestFabricTradeFacts sends a buyer's facts: the card grows a row for
// each, with the yard and inch figures beside the metric ones, the data
// repeats them, and a price without its currency is refused.
func TestFabricTradeFacts(t *testing.T) {
	d := mustLookup(t, "fabric.create")
	body := `{"name":"Forest twill","colour":"forest green",` +
		`"facts":{"weight_gsm":240,"composition":[{"fibre":"cotton","percent":100}],"construction":"twill"},` +
		`"trade":{"width_cm":150,"shrinkage_length_pct":3,"shrinkage_width_pct":2,"price_per_m":8.5,` +
		`"currency":"EUR","minimum_order_m":300}}`
	in, err := d.Validate([]byte(body))
	require.NoError(t, err)
	out, err := d.Runner.Step(context.Background(), in, 0)
	require.NoError(t, err)
	dump(t, "fabric_trade.png", out.Data)
	card, err := png.Decode(bytes.NewReader(out.Data))
	require.NoError(t, err)
	require.Equal(t, 1440+4*64, card.Bounds().Dy(), "a row for each of width, shrinkage, price and minimum order")
	fab := tasks.Arg[fabricInput](in)
	require.NotNil(t, fab)
	rows := tradeRows(fab.Trade)
	require.Equal(t, [][2]string{
		{"Width", "150 cm · 59 in usable"},
		{"Shrinkage", "length 3% · width 2% after washing"},
		{"Price", "€8.50 / m · €7.77 / yd"},
		{"Minimum order", "300 m · 328 yd"},
	}, rows)
	meta, _ := json.Marshal(out.Meta)
	require.Contains(t, string(meta), `"trade":{"currency":"EUR","minimum_order_m":300,"price_per_m":8.5,`+
		`"shrinkage_length_pct":3,"shrinkage_width_pct":2,"width_cm":150}`)
	require.Contains(t, string(meta), `"name":"forest"`, "forest green is read as the colour_name entry forest")

	var refused *apierr.Error
	require.ErrorAs(t, checkTrade(&FabricTrade{PricePerM: new(8.5)}), &refused)
	require.Equal(t, "trade.currency", *refused.Field)
}
