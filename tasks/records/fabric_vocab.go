package records

import "github.com/taskplatform/taskplatform/tasks"

// fibre is one value of the fibre vocabulary with its labelling code
// (ISO 2076 / EU 1007/2011 abbreviations).
type fibre struct{ value, label, code, group, text string }

var fibres = []fibre{
	{"cotton", "Cotton", "CO", "plant", "Soft, breathable, absorbent; creases."},
	{
		"organic_cotton",
		"Organic cotton",
		"CO",
		"plant",
		"Cotton grown without synthetic pesticides or fertilisers (label it as cotton).",
	},
	{"linen", "Linen", "LI", "plant", "Flax fibre: cool, crisp, strong; creases easily."},
	{"hemp", "Hemp", "HA", "plant", "Strong, durable bast fibre that softens with wear."},
	{"wool", "Wool", "WO", "animal", "Warm, elastic, moisture-regulating."},
	{"merino", "Merino wool", "WO", "animal", "Fine wool that can be worn next to the skin (label it as wool)."},
	{"cashmere", "Cashmere", "WS", "animal", "Very soft, light and warm goat hair."},
	{"alpaca", "Alpaca", "WP", "animal", "Warm, silky hair without lanolin."},
	{"mohair", "Mohair", "WM", "animal", "Lustrous, resilient angora-goat hair."},
	{"silk", "Silk", "SE", "animal", "Lustrous, smooth, strong for its weight."},
	{"viscose", "Viscose", "CV", "cellulosic", "Regenerated cellulose: drapes and dyes well, weak when wet."},
	{"modal", "Modal", "CMD", "cellulosic", "Regenerated cellulose, softer and stronger wet than viscose."},
	{"lyocell", "Lyocell", "CLY", "cellulosic", "Regenerated cellulose from a closed solvent loop: strong, smooth."},
	{"cupro", "Cupro", "CUP", "cellulosic", "Regenerated cotton linter with a silky hand."},
	{"polyester", "Polyester", "PES", "synthetic", "Strong, quick-drying, holds its shape."},
	{
		"recycled_polyester",
		"Recycled polyester",
		"PES",
		"synthetic",
		"Polyester from recycled bottles or textiles (label it as polyester).",
	},
	{"polyamide", "Polyamide (nylon)", "PA", "synthetic", "Very strong and abrasion-resistant."},
	{"acrylic", "Acrylic", "PAN", "synthetic", "Wool-like, warm, light."},
	{"elastane", "Elastane", "EL", "synthetic", "Stretch fibre, a few percent in a blend."},
	{"polypropylene", "Polypropylene", "PP", "synthetic", "Very light, wicks moisture."},
}

// construction is one value of the fabric_construction vocabulary.
type construction struct{ value, label, code, group, text string }

var constructions = []construction{
	{"plain_weave", "Plain weave", "PW", "woven", "Over one, under one: the simplest, firmest weave."},
	{"poplin", "Poplin", "PO", "woven", "Fine plain weave with a slight cross rib; shirting."},
	{"canvas", "Canvas", "CA", "woven", "Heavy, tight plain weave."},
	{"oxford", "Oxford", "OX", "woven", "Basket weave of paired yarns; shirting."},
	{"twill", "Twill", "TW", "woven", "Diagonal ribs; drapes and hides soil."},
	{"denim", "Denim", "DN", "woven", "Warp-faced cotton twill, usually indigo warp and white weft."},
	{"gabardine", "Gabardine", "GB", "woven", "Tight, steep twill; suiting and outerwear."},
	{"herringbone", "Herringbone", "HB", "woven", "Twill reversed in bands: a broken zig-zag."},
	{"satin", "Satin", "SA", "woven", "Long floats: smooth and lustrous face."},
	{"crepe", "Crepe", "CR", "woven", "Crinkled, grainy surface from twisted yarns."},
	{"ripstop", "Ripstop", "RS", "woven", "Reinforcement grid that stops tears spreading."},
	{"dobby", "Dobby", "DB", "woven", "Small geometric woven figures."},
	{"jacquard", "Jacquard", "JQ", "woven", "Large woven figures controlled thread by thread."},
	{"corduroy", "Corduroy", "CD", "pile", "Cut-pile cords (wales) running down the cloth."},
	{"velvet", "Velvet", "VV", "pile", "Short, dense cut pile."},
	{"jersey", "Jersey", "JE", "knit", "Single knit: smooth face, loops on the back; T-shirts."},
	{"rib", "Rib", "RB", "knit", "Columns of knit and purl: stretches across."},
	{"interlock", "Interlock", "IL", "knit", "Double knit, smooth on both faces."},
	{"pique", "Piqué", "PQ", "knit", "Textured knit of small cells; polo shirts."},
	{"fleece", "Fleece", "FL", "knit", "Brushed knit with a soft, warm pile."},
	{"terry", "Terry", "TE", "knit", "Uncut loops that absorb water; towelling."},
	{"french_terry", "French terry", "FT", "knit", "Flat face, looped back; sweatshirts."},
	{"lace", "Lace", "LC", "other", "Openwork of looped, twisted or knitted threads."},
}

func fibreVocab() tasks.Vocabulary {
	values := make([]tasks.VocabValue, len(fibres))
	for i, f := range fibres {
		values[i] = tasks.VocabValue{
			Value:       f.value,
			Label:       f.label,
			Group:       f.group,
			Description: f.text + " Code " + f.code + ".",
		}
	}
	return tasks.Vocabulary{
		Name:        "fibre",
		Description: "A fibre of a fabric's composition, with its labelling code (ISO 2076 / EU 1007/2011).",
		Values:      values,
		Concept:     new("fabric"),
		Groups: []tasks.VocabGroup{
			{
				Name:        "plant",
				Description: "Natural plant fibres.",
			}, {Name: "animal", Description: "Natural animal fibres."},
			{
				Name:        "cellulosic",
				Description: "Regenerated cellulose.",
			}, {Name: "synthetic", Description: "Synthetic polymers."}},
	}
}

func constructionVocab() tasks.Vocabulary {
	values := make([]tasks.VocabValue, len(constructions))
	for i, c := range constructions {
		values[i] = tasks.VocabValue{
			Value:       c.value,
			Label:       c.label,
			Group:       c.group,
			Description: c.text + " Code " + c.code + ".",
		}
	}
	return tasks.Vocabulary{Name: "fabric_construction", Description: "How a fabric is made: its weave, pile or knit.",
		Values: values, Concept: new("fabric"), Groups: []tasks.VocabGroup{
			{Name: "woven", Description: "Woven fabrics."}, {Name: "pile", Description: "Woven pile fabrics."},
			{Name: "knit", Description: "Knitted fabrics."}, {Name: "other", Description: "Other constructions."}}}
}
