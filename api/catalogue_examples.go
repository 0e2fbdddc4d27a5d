package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// exampleFileView is one file of an example: its address, type and data.
type exampleFileView struct {
	Index     int            `json:"index"`
	File      string         `json:"file,omitempty"`
	URL       string         `json:"url"`
	MediaType string         `json:"media_type"`
	Bytes     int            `json:"bytes"`
	Data      map[string]any `json:"data"`
}

// exampleRequest is the call an example makes.
type exampleRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body"`
}

// exampleView is one example: the request sent, the files sent with it
// (none for tasks that take no files) and the files it delivered, which are
// made by running the task on the request — none for a task whose steps
// run on an operator's model server (tasks.Definition.ExampleOutputsServed):
// a public read never runs a prediction.
type exampleView struct {
	Name           string             `json:"name"`
	Title          string             `json:"title"`
	Description    string             `json:"description"`
	Request        exampleRequest     `json:"request"`
	FilesSent      []exampleFileView  `json:"files_sent"`
	FilesDelivered []exampleFileView  `json:"files_delivered"`
	Warnings       []contract.Warning `json:"warnings"`
}

// examples answers GET /v1/tasks/{name}/examples.
func (h *catalogueHandlers) examples(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	items := make([]exampleView, 0, len(d.Examples))
	for i, ex := range d.Examples {
		var outs []tasks.Output
		if d.ExampleOutputsServed() {
			if outs, err = d.ExampleOutputs(c.Request.Context(), i); err != nil {
				middleware.Fail(c, err)
				return
			}
		}
		v := exampleView{Name: ex.Name, Title: ex.Title, Description: ex.Description,
			Request:   exampleRequest{Method: http.MethodPost, Path: "/v1/tasks/" + d.Name, Body: ex.Input},
			FilesSent: []exampleFileView{}, FilesDelivered: []exampleFileView{}, Warnings: []contract.Warning{}}
		for j, f := range ex.Files {
			data := f.Data()
			v.FilesSent = append(
				v.FilesSent,
				exampleFileView{Index: j, File: f.Ref, MediaType: f.MediaType, Bytes: len(data),
					URL: h.d.BaseURL + "/v1/tasks/" + d.Name + "/examples/" + ex.Name + "/sent/" + strconv.Itoa(j)},
			)
		}
		for j, o := range outs {
			v.FilesDelivered = append(
				v.FilesDelivered,
				exampleFileView{Index: j, MediaType: o.MediaType, Bytes: len(o.Data), Data: o.Meta,
					URL: h.d.BaseURL + "/v1/tasks/" + d.Name + "/examples/" + ex.Name + "/files/" + strconv.Itoa(j)},
			)
			v.Warnings = append(v.Warnings, o.Warnings...)
		}
		items = append(items, v)
	}
	c.JSON(http.StatusOK, gin.H{"task": d.Name, "items": items, "has_more": false})
}

// exampleSentFile answers the bytes of one file an example sends.
func (h *catalogueHandlers) exampleSentFile(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	for _, ex := range d.Examples {
		j, err := strconv.Atoi(c.Param("index"))
		if ex.Name != c.Param("example") || err != nil || j < 0 || j >= len(ex.Files) {
			continue
		}
		c.Header("Cache-Control", "public, max-age=86400")
		c.Data(http.StatusOK, ex.Files[j].MediaType, ex.Files[j].Data())
		return
	}
	middleware.Fail(
		c,
		apierr.New(apierr.NotFound, "The example sends no such file; list them at GET /v1/tasks/"+d.Name+"/examples."),
	)
}

// exampleFile answers the bytes of one delivered file of an example.
func (h *catalogueHandlers) exampleFile(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	for i, ex := range d.Examples {
		if ex.Name != c.Param("example") || !d.ExampleOutputsServed() {
			continue
		}
		outs, err := d.ExampleOutputs(c.Request.Context(), i)
		if err != nil {
			middleware.Fail(c, err)
			return
		}
		j, err := strconv.Atoi(c.Param("index"))
		if err != nil || j < 0 || j >= len(outs) {
			break
		}
		c.Header("Cache-Control", "public, max-age=86400")
		c.Data(http.StatusOK, outs[j].MediaType, outs[j].Data)
		return
	}
	middleware.Fail(
		c,
		apierr.New(apierr.NotFound, "The example has no such file; list them at GET /v1/tasks/"+d.Name+"/examples."),
	)
}
