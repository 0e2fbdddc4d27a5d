package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	catalog "github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// catalogueHandlers answer the public reference reads: tasks, their
// documents and examples, vocabularies, concepts, recipes, errors, prices and
// service metadata. None needs a key; a key that is sent is still checked by
// the authenticator in front of the group. Estimate needs a key.
type catalogueHandlers struct{ d *Deps }

// listTasks answers every runnable task (deprecated ones included, removed
// ones not) with both schemas, in catalogue order, cursor-paged.
func (h *catalogueHandlers) listTasks(c *gin.Context) {
	paginate(c, h.d.taskCatalogue().Views(), func(v catalog.TaskView) string { return v.Name }, 20)
}

// getTask answers one Task: 404 task_not_found, 410 task_removed.
func (h *catalogueHandlers) getTask(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, catalog.View(d))
}

func (h *catalogueHandlers) llmsIndex(c *gin.Context) {
	c.Data(http.StatusOK, "text/plain; charset=utf-8", []byte(h.d.taskCatalogue().LLMsIndex(h.d.BaseURL)))
}

func (h *catalogueHandlers) taskLLMs(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.Data(http.StatusOK, "text/plain; charset=utf-8", []byte(catalog.LLMsText(d, h.d.BaseURL)))
}

func (h *catalogueHandlers) listVocab(c *gin.Context) {
	paginate(c, h.d.taskCatalogue().Vocabularies(), func(v tasks.Vocabulary) string { return v.Name }, 100)
}

func (h *catalogueHandlers) getVocab(c *gin.Context) {
	v, ok := h.d.taskCatalogue().Vocabulary(c.Param("name"))
	if !ok {
		middleware.Fail(
			c,
			apierr.Newf(apierr.NotFound, "No vocabulary is named %q; list them at GET /v1/vocab.", c.Param("name")),
		)
		return
	}
	c.JSON(http.StatusOK, v)
}

func (h *catalogueHandlers) listConcepts(c *gin.Context) {
	paginate(c, h.d.taskCatalogue().Concepts(), func(v tasks.Concept) string { return v.Name }, 100)
}

func (h *catalogueHandlers) getConcept(c *gin.Context) {
	v, ok := h.d.taskCatalogue().Concept(c.Param("name"))
	if !ok {
		middleware.Fail(
			c,
			apierr.Newf(apierr.NotFound, "No concept is named %q; list them at GET /v1/concepts.", c.Param("name")),
		)
		return
	}
	c.JSON(http.StatusOK, v)
}

func (h *catalogueHandlers) listRecipes(c *gin.Context) {
	paginate(c, h.d.taskCatalogue().Recipes(), func(v tasks.Recipe) string { return v.Name }, 100)
}

// errorView is one row of GET /v1/errors; status is null for codes that
// only end jobs or appear in summaries.
type errorView struct {
	Code      apierr.Code `json:"code"`
	Type      apierr.Type `json:"type"`
	Status    *int        `json:"status"`
	Retryable bool        `json:"retryable"`
	Meaning   string      `json:"meaning"`
	Fix       string      `json:"fix"`
	Docs      string      `json:"docs"`
}

func (h *catalogueHandlers) listErrors(c *gin.Context) {
	var rows []errorView
	for _, e := range apierr.Entries() {
		v := errorView{
			Code:      e.Code,
			Type:      e.Type,
			Retryable: e.Retryable,
			Meaning:   e.Meaning,
			Fix:       e.Fix,
			Docs:      apierr.DocsURL(e.Code),
		}
		if e.Status != 0 {
			v.Status = &e.Status
		}
		rows = append(rows, v)
	}
	paginate(c, rows, func(v errorView) string { return string(v.Code) }, 100)
}

// pricing answers every runnable task's prices per option: the figures
// Estimate multiplies by the planned outputs.
func (h *catalogueHandlers) pricing(c *gin.Context) {
	paginate(c, h.d.taskCatalogue().Prices(), func(v catalog.PriceEntry) string { return v.Task }, 100)
}

// changelog answers the changelog, newest first, cursor-paged.
func (h *catalogueHandlers) changelog(c *gin.Context) {
	paginate(c, h.d.taskCatalogue().Changelog(), catalog.ChangelogEntry.Key, 50)
}

// changelogAtom answers the changelog as an Atom feed.
func (h *catalogueHandlers) changelogAtom(c *gin.Context) {
	feed, err := h.d.taskCatalogue().ChangelogAtom(h.d.BaseURL)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.Data(http.StatusOK, "application/atom+xml; charset=utf-8", feed)
}

func (h *catalogueHandlers) meta(c *gin.Context) {
	c.JSON(http.StatusOK, metaView{contract.DefaultMeta(), scopeRows()})
}

func (h *catalogueHandlers) taskOpenAPI(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, TaskOpenAPI(d, h.d.BaseURL))
}

func (h *catalogueHandlers) panelOpenAPI(c *gin.Context) {
	c.JSON(http.StatusOK, PanelOpenAPI(h.d.taskCatalogue().Tasks(), h.d.BaseURL))
}

func (h *catalogueHandlers) serviceOpenAPI(c *gin.Context) {
	c.JSON(http.StatusOK, ServiceOpenAPI(h.d.taskCatalogue().Tasks(), h.d.BaseURL))
}
