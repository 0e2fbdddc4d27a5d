package photoshoot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// viewFields name the product image each angle shows: the front and the
// walking tilt show product; every other angle needs its own photograph,
// because a view that is not in any image cannot be made from another.
var viewFields = map[string]string{
	angleFront:        "product",
	angleWalking:      "product",
	angleBack:         "product_back",
	angleSide:         "product_side",
	angleThreeQuarter: "product_three_quarter",
}

// viewImage is the product image sent for angle, or "".
func (in *createInput) viewImage(angle string) string {
	var p *string
	switch viewFields[angle] {
	case "product":
		return in.Product
	case "product_back":
		p = in.ProductBack
	case "product_side":
		p = in.ProductSide
	case "product_three_quarter":
		p = in.ProductThreeQuarter
	}
	if p == nil {
		return ""
	}
	return *p
}

// refuseCreate is photoshoot.create's own check, run before anything is
// held: what the compositor cannot make honestly is refused, naming what
// is missing.
func refuseCreate(in *createInput, _ map[string]tasks.ImageSize) *apierr.Error {
	if in.Model != nil {
		return apierr.New(apierr.RequestRefused, "photoshoot.create makes packshots, not on-model shots: a garment "+
			"worn by a person needs a photograph of a person wearing it, which the service cannot make (it has no "+
			"generative model). Drop model; send a photograph of the garment worn as product to shoot it as it is.").
			WithField("model")
	}
	if err := refuseViews(in); err != nil {
		return err
	}
	if strings.HasPrefix(in.Background, "background:") {
		if _, ok := backgroundByHandle(in.Background); !ok {
			return nil // Admit answers an unknown backdrop
		}
	}
	bg := backdrop(in)
	scene := bg.Setting == settingScene
	if scene && in.ProductHeightCM == nil {
		return apierr.Newf(apierr.RequestRefused, "A scene needs the product's real size to stand it at its scale "+
			"on the scene's floor: send product_height_cm (its height as it stands in the product image), or "+
			"a studio backdrop.").WithField("product_height_cm")
	}
	if in.Reflection && scene {
		return apierr.New(apierr.RequestRefused, "A reflection lies on a studio's glossy floor; a scene has its own "+
			"floor. Drop reflection or send a studio backdrop.").WithField("reflection")
	}
	m, ok := marketplaceOf(in.Marketplace)
	if !ok {
		return nil
	}
	switch {
	case scene:
		return apierr.Newf(apierr.RequestRefused, "The %s preset frames a packshot on a studio backdrop, not a "+
			"scene: send a studio colour (#FFFFFF), or marketplace none.", m.label).WithField("background")
	case m.white && !strings.EqualFold(bg.Colour, "#FFFFFF"):
		return apierr.Newf(apierr.RequestRefused, "The %s must be on pure white #FFFFFF; the backdrop sent is %s. "+
			"Send background #FFFFFF (or background:bg_studio_white), or marketplace none.", m.label, bg.Colour).
			WithField("background")
	case in.Reflection && !m.reflection:
		return apierr.Newf(apierr.RequestRefused, "The %s allows a soft contact shadow but no reflection; drop "+
			"reflection.", m.label).WithField("reflection")
	}
	return nil
}

// refuseViews refuses a pose whose view has no product image: a back is
// never the front mirrored, a side never the front squeezed.
func refuseViews(in *createInput) *apierr.Error {
	for i, ref := range in.Poses.Refs {
		field := fmt.Sprintf("poses[%d]", i)
		if in.Poses.Bare {
			field = "poses"
		}
		var missing []string
		for _, p := range resolvePoses([]string{ref}, "") {
			if in.viewImage(p.Angle) == "" && !slices.Contains(missing, viewFields[p.Angle]) {
				missing = append(missing, viewFields[p.Angle])
			}
		}
		if len(missing) > 0 {
			return apierr.Newf(apierr.RequestRefused, "%s shoots views that no product image shows: send %s (a "+
				"photograph of the product from that side; a view is never made by mirroring or squeezing the "+
				"front), or only the poses of the views you have.", ref, strings.Join(missing, " and ")).
				WithField(field)
		}
	}
	return nil
}
