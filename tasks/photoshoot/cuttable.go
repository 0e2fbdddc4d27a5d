package photoshoot

import (
	"context"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// refuseUncuttable refuses at submit a marketplace packshot whose product
// image clearly cannot be cut out (image.CutCheck on a small copy: a busy
// or scene backdrop, nothing against it), naming the image and the
// reason: no job, nothing charged. It reads only what a submit can read
// (a stored file, an example's file); an image it cannot read here (an
// https URL) and one near the threshold are left to the step, whose shot
// is then not produced and not charged.
func refuseUncuttable(ctx context.Context, in *createInput) error {
	m, ok := marketplaceOf(in.Marketplace)
	if !ok {
		return nil
	}
	views := []struct {
		field string
		ref   *string
	}{{"product", &in.Product}, {"product_back", in.ProductBack}, {"product_side", in.ProductSide},
		{"product_three_quarter", in.ProductThreeQuarter}}
	for _, v := range views {
		if v.ref == nil || *v.ref == "" || !tasks.IsHandle(*v.ref) {
			continue
		}
		img, err := imgfam.Load(ctx, tasks.Ref{Field: v.field, Ref: *v.ref})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			continue // no loader here, or a file the step will refuse with its own reason
		}
		why, err := imgfam.CutCheck(ctx, img)
		if err != nil {
			return err
		}
		if why != "" {
			return apierr.Newf(apierr.RequestRefused, "%s (%s) cannot be cut out for the %s packshot: %s. Send a "+
				"shot on a plain backdrop or a transparent PNG, or marketplace none to lay the photo down whole.",
				v.field, *v.ref, m.label, why).WithField(v.field)
		}
	}
	return nil
}
