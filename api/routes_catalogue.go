package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
)

// catalogue adapts a catalogue handler method to the route table.
func catalogue(f func(*catalogueHandlers, *gin.Context)) func(*handlers) gin.HandlerFunc {
	return func(h *handlers) gin.HandlerFunc { return func(c *gin.Context) { f(h.catalogue, c) } }
}

// catalogueRoutes are the public reference reads: no key needed.
func catalogueRoutes() []route {
	name := openapi.PathParam("name", "A task name, such as pattern.generate.", openapi.Str())
	gone := []int{http.StatusNotFound, http.StatusGone}
	document := openapi.Object(
		oa{"openapi": openapi.Str(), "info": openapi.FreeObject("Title, description and version."),
			"servers": openapi.ArrayOf(
				openapi.Object(oa{"url": openapi.Str()}, "url"),
			), "jsonSchemaDialect": openapi.Str(),
			"paths": openapi.FreeObject(
				"The operations by path.",
			), "components": openapi.FreeObject("Schemas, responses, parameters and security schemes."),
			"tags": openapi.ArrayOf(
				openapi.Object(oa{"name": openapi.Str(), "description": openapi.Str()}, "name", "description"),
			),
			"webhooks": openapi.FreeObject("The job events a webhook endpoint receives, by event kind.")},
		"openapi",
		"info",
		"paths",
		"components",
	)
	read := func(path, id, summary string, h func(*catalogueHandlers, *gin.Context), body oa, errs ...int) route {
		return route{method: http.MethodGet, path: path, access: middleware.AccessPublic, handle: catalogue(h),
			op: openapi.Operation{
				ID:      id,
				Summary: summary,
				Answers: []openapi.Response{openapi.JSONAnswer(http.StatusOK, summary+".", body)},
				Errors:  errs,
			}}
	}
	list := func(path, id, summary string, h func(*catalogueHandlers, *gin.Context), item oa, def int) route {
		rt := read(path, id, summary, h, openapi.Page(item), http.StatusUnprocessableEntity)
		rt.op.Params = openapi.PageParams(def, maxCataloguePage)
		return rt
	}
	exampleFile := func(kind, id, summary string, h func(*catalogueHandlers, *gin.Context)) route {
		return route{
			method: http.MethodGet,
			path:   "/v1/tasks/{name}/examples/{example}/" + kind + "/{index}",
			access: middleware.AccessPublic,
			handle: catalogue(h),
			op: openapi.Operation{ID: id, Summary: summary,
				Params: []oa{name, openapi.PathParam("example", "The example's name.", openapi.Str()),
					openapi.PathParam(
						"index",
						"The file's index in the example.",
						oa{"type": "integer", "minimum": 0},
					)},
				Answers: []openapi.Response{
					openapi.BytesAnswer("The file's bytes in its media type.", "*/*"),
				}, Errors: gone},
		}
	}
	withName := func(rt route) route {
		rt.op.Params = append([]oa{name}, rt.op.Params...)
		return rt
	}
	return tagged(
		"catalogue",
		list(
			"/v1/tasks",
			"tasks_list",
			"Every runnable task with its schemas",
			(*catalogueHandlers).listTasks,
			openapi.Ref("Task"),
			20,
		),
		route{
			method: http.MethodGet,
			path:   "/v1/tasks/llms.txt",
			access: middleware.AccessPublic,
			handle: catalogue((*catalogueHandlers).llmsIndex),
			op: openapi.Operation{
				ID:      "tasks_llms",
				Summary: "The plain-text task index for language models",
				Answers: []openapi.Response{openapi.TextAnswer("The index.")},
			},
		},
		withName(
			read(
				"/v1/tasks/{name}",
				"task_read",
				"One task; a removed one answers 410 task_removed",
				(*catalogueHandlers).getTask,
				openapi.Ref("Task"),
				gone...),
		),
		withName(
			read(
				"/v1/tasks/{name}/openapi.json",
				"task_openapi",
				"The task's own OpenAPI document",
				(*catalogueHandlers).taskOpenAPI,
				document,
				gone...),
		),
		route{
			method: http.MethodGet,
			path:   "/v1/tasks/{name}/llms.txt",
			access: middleware.AccessPublic,
			handle: catalogue((*catalogueHandlers).taskLLMs),
			op: openapi.Operation{
				ID:      "task_llms",
				Summary: "One task's plain-text page for language models",
				Params:  []oa{name},
				Answers: []openapi.Response{openapi.TextAnswer("The task's page.")},
				Errors:  gone,
			},
		},
		withName(
			read(
				"/v1/tasks/{name}/examples",
				"task_examples",
				"The task's examples with the files they send and deliver",
				(*catalogueHandlers).examples,
				openapi.Object(
					oa{
						"task":     openapi.Str(),
						"items":    openapi.ArrayOf(openapi.Ref("Example")),
						"has_more": openapi.Boolean(),
					},
					"task",
					"items",
					"has_more",
				),
				gone...),
		),
		exampleFile("files", "task_example_file", "One file an example delivered", (*catalogueHandlers).exampleFile),
		exampleFile("sent", "task_example_sent", "One file an example sends", (*catalogueHandlers).exampleSentFile),
		read(
			"/v1/openapi.json",
			"service_openapi",
			"The OpenAPI document of the whole service",
			(*catalogueHandlers).serviceOpenAPI,
			document,
		),
		panelDocRoute(document),
		list(
			"/v1/vocab",
			"vocab_list",
			"All vocabularies",
			(*catalogueHandlers).listVocab,
			openapi.Ref("Vocabulary"),
			maxCataloguePage,
		),
		withName(
			read(
				"/v1/vocab/{name}",
				"vocab_read",
				"One vocabulary",
				(*catalogueHandlers).getVocab,
				openapi.Ref("Vocabulary"),
				http.StatusNotFound,
			),
		),
		list(
			"/v1/concepts",
			"concepts_list",
			"All concepts",
			(*catalogueHandlers).listConcepts,
			openapi.Ref("Concept"),
			maxCataloguePage,
		),
		withName(
			read(
				"/v1/concepts/{name}",
				"concept_read",
				"One concept",
				(*catalogueHandlers).getConcept,
				openapi.Ref("Concept"),
				http.StatusNotFound,
			),
		),
		list(
			"/v1/recipes",
			"recipes_list",
			"Multi-step walk-throughs over several tasks",
			(*catalogueHandlers).listRecipes,
			openapi.Ref("Recipe"),
			maxCataloguePage,
		),
		list(
			"/v1/errors",
			"errors_list",
			"The error catalogue, warning codes included",
			(*catalogueHandlers).listErrors,
			openapi.Ref("ErrorEntry"),
			maxCataloguePage,
		),
		list(
			"/v1/pricing",
			"pricing_list",
			"Every task's prices per option",
			(*catalogueHandlers).pricing,
			openapi.Ref("PriceEntry"),
			maxCataloguePage,
		),
		list(
			"/v1/changelog",
			"changelog_list",
			"The changelog, newest first: tasks added, deprecated and removed, and dated versions",
			(*catalogueHandlers).changelog,
			openapi.Ref("ChangelogEntry"),
			50,
		),
		route{
			method: http.MethodGet,
			path:   "/v1/changelog.atom",
			access: middleware.AccessPublic,
			handle: catalogue((*catalogueHandlers).changelogAtom),
			op: openapi.Operation{
				ID:      "changelog_atom",
				Summary: "The changelog as an Atom feed",
				Answers: []openapi.Response{
					openapi.BytesAnswer("The Atom 1.0 feed, newest first.", "application/atom+xml"),
				},
			},
		},
		read(
			"/v1/meta",
			"meta_read",
			"Limits, webhook policy, versions and what every route needs",
			(*catalogueHandlers).meta,
			openapi.Ref("Meta"),
		),
	)
}
