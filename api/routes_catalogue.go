package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/taskplatform/taskplatform/api/middleware"
)

// catalogue adapts a catalogue handler method to the route table.
func catalogue(f func(*catalogueHandlers, *gin.Context)) func(*handlers) gin.HandlerFunc {
	return func(h *handlers) gin.HandlerFunc { return func(c *gin.Context) { f(h.catalogue, c) } }
}

// catalogueRoutes are the public reference reads: no key needed.
func catalogueRoutes() []route {
	name := pathParam("name", "A task name, such as pattern.generate.", str())
	gone := []int{http.StatusNotFound, http.StatusGone}
	document := object(oa{"openapi": str(), "info": freeObject("Title, description and version."),
		"servers": arrayOf(object(oa{"url": str()}, "url")), "jsonSchemaDialect": str(),
		"paths": freeObject(
			"The operations by path.",
		), "components": freeObject("Schemas, responses, parameters and security schemes."),
		"tags":     arrayOf(object(oa{"name": str(), "description": str()}, "name", "description")),
		"webhooks": freeObject("The job events a webhook endpoint receives, by event kind.")},
		"openapi", "info", "paths", "components")
	read := func(path, id, summary string, h func(*catalogueHandlers, *gin.Context), body oa, errs ...int) route {
		return route{method: http.MethodGet, path: path, access: middleware.AccessPublic, handle: catalogue(h),
			op: operation{
				id:      id,
				summary: summary,
				answers: []response{jsonAnswer(http.StatusOK, summary+".", body)},
				errors:  errs,
			}}
	}
	list := func(path, id, summary string, h func(*catalogueHandlers, *gin.Context), item oa, def int) route {
		rt := read(path, id, summary, h, page(item), http.StatusUnprocessableEntity)
		rt.op.params = pageParams(def, maxCataloguePage)
		return rt
	}
	exampleFile := func(kind, id, summary string, h func(*catalogueHandlers, *gin.Context)) route {
		return route{
			method: http.MethodGet,
			path:   "/v1/tasks/{name}/examples/{example}/" + kind + "/{index}",
			access: middleware.AccessPublic,
			handle: catalogue(h),
			op: operation{id: id, summary: summary,
				params: []oa{name, pathParam("example", "The example's name.", str()),
					pathParam("index", "The file's index in the example.", oa{"type": "integer", "minimum": 0})},
				answers: []response{bytesAnswer("The file's bytes in its media type.", "*/*")}, errors: gone},
		}
	}
	withName := func(rt route) route {
		rt.op.params = append([]oa{name}, rt.op.params...)
		return rt
	}
	return tagged(
		"catalogue",
		list(
			"/v1/tasks",
			"tasks_list",
			"Every runnable task with its schemas",
			(*catalogueHandlers).listTasks,
			ref("Task"),
			20,
		),
		route{
			method: http.MethodGet,
			path:   "/v1/tasks/llms.txt",
			access: middleware.AccessPublic,
			handle: catalogue((*catalogueHandlers).llmsIndex),
			op: operation{
				id:      "tasks_llms",
				summary: "The plain-text task index for language models",
				answers: []response{textAnswer("The index.")},
			},
		},
		withName(
			read(
				"/v1/tasks/{name}",
				"task_read",
				"One task; a removed one answers 410 task_removed",
				(*catalogueHandlers).getTask,
				ref("Task"),
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
			op: operation{
				id:      "task_llms",
				summary: "One task's plain-text page for language models",
				params:  []oa{name},
				answers: []response{textAnswer("The task's page.")},
				errors:  gone,
			},
		},
		withName(
			read(
				"/v1/tasks/{name}/examples",
				"task_examples",
				"The task's examples with the files they send and deliver",
				(*catalogueHandlers).examples,
				object(
					oa{"task": str(), "items": arrayOf(ref("Example")), "has_more": boolean()},
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
			ref("Vocabulary"),
			maxCataloguePage,
		),
		withName(
			read(
				"/v1/vocab/{name}",
				"vocab_read",
				"One vocabulary",
				(*catalogueHandlers).getVocab,
				ref("Vocabulary"),
				http.StatusNotFound,
			),
		),
		list(
			"/v1/concepts",
			"concepts_list",
			"All concepts",
			(*catalogueHandlers).listConcepts,
			ref("Concept"),
			maxCataloguePage,
		),
		withName(
			read(
				"/v1/concepts/{name}",
				"concept_read",
				"One concept",
				(*catalogueHandlers).getConcept,
				ref("Concept"),
				http.StatusNotFound,
			),
		),
		list(
			"/v1/recipes",
			"recipes_list",
			"Multi-step walk-throughs over several tasks",
			(*catalogueHandlers).listRecipes,
			ref("Recipe"),
			maxCataloguePage,
		),
		list(
			"/v1/errors",
			"errors_list",
			"The error catalogue, warning codes included",
			(*catalogueHandlers).listErrors,
			ref("ErrorEntry"),
			maxCataloguePage,
		),
		list(
			"/v1/pricing",
			"pricing_list",
			"Every task's prices per option",
			(*catalogueHandlers).pricing,
			ref("PriceEntry"),
			maxCataloguePage,
		),
		list(
			"/v1/changelog",
			"changelog_list",
			"The changelog, newest first: tasks added, deprecated and removed, and dated versions",
			(*catalogueHandlers).changelog,
			ref("ChangelogEntry"),
			50,
		),
		route{
			method: http.MethodGet,
			path:   "/v1/changelog.atom",
			access: middleware.AccessPublic,
			handle: catalogue((*catalogueHandlers).changelogAtom),
			op: operation{
				id:      "changelog_atom",
				summary: "The changelog as an Atom feed",
				answers: []response{bytesAnswer("The Atom 1.0 feed, newest first.", "application/atom+xml")},
			},
		},
		read(
			"/v1/meta",
			"meta_read",
			"Limits, webhook policy, versions and what every route needs",
			(*catalogueHandlers).meta,
			ref("Meta"),
		),
	)
}
