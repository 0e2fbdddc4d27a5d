package panel

import (
	"html/template"
	"strings"
)

// pageNames are the page templates; each is parsed with layout.html.
var pageNames = []string{"signin", "overview", "jobs", "job", "run", "runform", "files", "keys", "webhooks", "notfound",
	"batches", "batch"}

var funcs = template.FuncMap{
	"time": shortTime,
	// creditLabel names a credit type for people: service_credits is
	// "Service credits".
	"creditLabel": func(t string) string {
		words := strings.ReplaceAll(strings.TrimSuffix(t, "_credits"), "_", " ")
		if words == "" {
			return "Credits"
		}
		return strings.ToUpper(words[:1]) + words[1:] + " credits"
	},
	"join": strings.Join,
	"mul":  func(a, b int) int { return a * b },
	"sub":  func(a, b int) int { return a - b },
	"contains": func(list []string, s string) bool {
		return strings.Contains(","+strings.Join(list, ",")+",", ","+s+",")
	},
	"deref": func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	},
	"derefInt": func(i *int) int {
		if i == nil {
			return 0
		}
		return *i
	},
	"percent": func(done int, total *int) int {
		if total == nil || *total == 0 {
			return 0
		}
		return done * 100 / *total
	},
}

// parsePages parses every page with the layout, once at start.
func parsePages() map[string]*template.Template {
	out := make(map[string]*template.Template, len(pageNames))
	for _, name := range pageNames {
		out[name] = template.Must(
			template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html"),
		)
	}
	return out
}
