package api

import (
	"errors"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/outbound"
	"github.com/taskplatform/taskplatform/tasks"
)

// The checks of a task's input, run alike by a submit and an estimate so an
// estimate refuses what a submit refuses: checkInput (the schema, the image
// references and the task's Refuse), then admitRecords (the task's own
// checks on the account's records, which a submit also writes). What only
// a submit does is the credit hold and the job.

// checkInput validates a request body against the task's schema and checks
// its image references; it answers the validated input.
func (d *Deps) checkInput(c *gin.Context, def *tasks.Definition, body []byte) (tasks.Input, error) {
	input, err := def.Validate(body)
	if err != nil {
		return tasks.Input{}, err
	}
	if err := d.checkRefs(c, def, input); err != nil {
		return tasks.Input{}, err
	}
	return input, nil
}

// checkRefs makes sure every image reference of the input can be used: a
// handle must be one of the caller's files, a URL must be public. Fields
// holding a list of references are checked item by item (images[2]). Then
// the task's own Refuse check runs with the sizes of the uploads known.
func (d *Deps) checkRefs(c *gin.Context, def *tasks.Definition, input tasks.Input) error {
	sizes := map[string]tasks.ImageSize{}
	for _, field := range def.RefFields() {
		for _, r := range tasks.Refs(input.Fields, field) {
			if err := d.checkRef(c, def, field, r, sizes); err != nil {
				return err
			}
		}
	}
	if def.Refuse != nil {
		if e := def.Refuse(input, sizes); e != nil {
			return e
		}
	}
	return nil
}

// checkRef checks one reference r of field and records its size when known.
func (d *Deps) checkRef(
	c *gin.Context,
	def *tasks.Definition,
	field string,
	r tasks.Ref,
	sizes map[string]tasks.ImageSize,
) error {
	ref := r.Ref
	if ref == "" {
		return nil
	}
	if _, ok := d.taskCatalogue().Tasks().ExampleFile(ref); ok {
		return nil // a file the catalogue's examples send: anyone may
	}
	if tasks.IsHandle(ref) {
		kind, id, _ := strings.Cut(ref, ":")
		f, err := models.FileByID(c.Request.Context(), d.DB, id)
		if errors.Is(err, models.ErrNotFound) ||
			(err == nil && (f.UserID != middleware.IdentityOf(c).User.ID || f.Kind() != kind)) {
			return apierr.Newf(apierr.InvalidRequest, "No file %s belongs to the account; upload it with POST /v1/files.", ref).
				WithField(r.Field)
		}
		if err != nil {
			return err
		}
		if w, hgt, known := f.ImageSize(); known {
			sizes[ref] = tasks.ImageSize{Width: w, Height: hgt}
			reason := tasks.CheckImageSize(w, hgt)
			if sides, bounded := def.RefSides[field]; bounded && sides.Check(w, hgt) != "" {
				reason = sides.Check(w, hgt)
			}
			if reason != "" {
				return apierr.New(apierr.RequestRefused, "The file "+ref+" cannot be used: "+reason+".").
					WithField(r.Field)
			}
		}
		return nil
	}
	err := outbound.CheckURL(c.Request.Context(), ref, d.AllowPrivateURLs)
	switch {
	case errors.Is(err, outbound.ErrNotPublic), errors.Is(err, outbound.ErrUnresolvable):
		return apierr.New(apierr.ImageNotPublic, "The image address is not publicly reachable.").WithField(r.Field)
	case err != nil:
		return apierr.New(apierr.InvalidRequest, "The image must be a file: or art: handle or an https:// URL.").
			WithField(r.Field)
	}
	return nil
}

// admitRecords runs the task's own submit checks on the account's records
// (a tasks.Admitter: a moodboard named must be analysed, a fabric the
// account's or curated), which also write the records the job makes from
// the moment it is accepted. A job then refused its credits never shows
// them. An estimate runs them with no job id (jobID ""): every check, no
// write.
func (d *Deps) admitRecords(c *gin.Context, def *tasks.Definition, jobID string, input tasks.Input) error {
	a, ok := def.Runner.(tasks.Admitter)
	if !ok {
		return nil
	}
	// A stored file can be read by the task's own checks (a packshot's product).
	userID := middleware.IdentityOf(c).User.ID
	ctx := tasks.WithLoader(c.Request.Context(), storedFiles{d: d, userID: userID})
	return a.Admit(ctx, tasks.Env{UserID: userID, JobID: jobID, DB: d.DB, Blob: d.Blob,
		FilesBaseURL: d.FilesBaseURL, Now: d.now, DryRun: jobID == ""}, input)
}
