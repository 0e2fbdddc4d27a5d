package catalogue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
)

// LLMsIndex is the plain-text task index of GET /v1/tasks/llms.txt.
func (c *Catalogue) LLMsIndex(baseURL string) string {
	var b strings.Builder
	b.WriteString("# Task catalogue\n\n")
	b.WriteString(
		"> Named tasks on images and designs. POST a task's JSON input to /v1/tasks/{name} with an API key; the answer is " +
			"a job. Catalogue reads need no key.\n\n",
	)
	b.WriteString("## Tasks\n\n")
	for _, d := range c.reg.Runnable() {
		status := ""
		if d.Status != "" {
			status = fmt.Sprintf(" (%s; use %s)", d.Status, d.ReplacedBy)
		}
		fmt.Fprintf(&b, "- [%s](%s/v1/tasks/%s/llms.txt): %s%s\n", d.Name, baseURL, d.Name, d.Description, status)
	}
	b.WriteString("\n## Reference\n\n")
	for _, r := range [][2]string{
		{"/v1/openapi.json", "OpenAPI 3.1 document of the whole service"},
		{"/v1/vocab", "vocabularies: the named lists of values"},
		{"/v1/concepts", "concepts"},
		{"/v1/recipes", "multi-step walk-throughs"},
		{"/v1/errors", "the error catalogue, warnings included"},
		{"/v1/pricing", "prices per task and option"},
		{"/v1/meta", "limits and versions"},
		{"/v1/changelog", "the changelog, newest first: tasks added, deprecated (with replacement and migration step) and " +
			"removed, and dated versions (Atom feed at /v1/changelog.atom)"},
	} {
		fmt.Fprintf(&b, "- [%s](%s%s): %s\n", r[0], baseURL, r[0], r[1])
	}
	return b.String()
}

// LLMsText is one task's plain-text page, GET /v1/tasks/{name}/llms.txt.
func LLMsText(d *tasks.Definition, baseURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s\n\n> %s\n\n%s\n\n", d.Name, d.Title, d.Description, d.Docs.Lead)
	if d.Status != "" {
		fmt.Fprintf(&b, "Status: %s. Use %s instead.\n\n", d.Status, d.ReplacedBy)
	}
	fmt.Fprintf(&b, "Category: %s. Unit: %s.\n\n## Call\n\n", d.Category, d.Unit)
	fmt.Fprintf(
		&b,
		"POST %s/v1/tasks/%s with `Authorization: Key <API_KEY>` and `Content-Type: application/json`; the body is the "+
			"input below.\n",
		baseURL,
		d.Name,
	)
	fmt.Fprintf(
		&b,
		"Estimate: POST %s/v1/tasks/%s/estimate. OpenAPI: %s/v1/tasks/%s/openapi.json.\n\n",
		baseURL,
		d.Name,
		baseURL,
		d.Name,
	)
	b.WriteString("## Input fields\n\n")
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(d.InputSchema))
	dec.UseNumber()
	_ = dec.Decode(&doc)
	req, _ := doc["required"].([]any)
	props, _ := doc["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]any)
		fmt.Fprintf(
			&b,
			"- `%s` (%s): %s\n",
			name,
			fieldSummary(p, slices.Contains(req, any(name)), onlyFor(d, name)),
			p["description"],
		)
	}
	b.WriteString("\nAny other field answers 422 field_not_accepted; null equals omitted.\n\n## Outputs\n\n")
	o := d.Docs.Outputs
	fmt.Fprintf(&b, "- Count: %s\n", o.Count)
	if o.Order != nil {
		fmt.Fprintf(&b, "- Order: %s\n", *o.Order)
	}
	if o.AbsentWhen != nil {
		fmt.Fprintf(&b, "- Absent when: %s\n", *o.AbsentWhen)
	}
	for _, w := range d.Docs.WhatYouGet {
		fmt.Fprintf(&b, "- %s\n", w)
	}
	b.WriteString("\n## Pricing\n\n")
	p := Price(d)
	if p.PerOutput != nil {
		fmt.Fprintf(&b, "- %d %s per %s\n", *p.PerOutput, p.CreditType, d.Unit)
	}
	for _, op := range p.Prices {
		fmt.Fprintf(&b, "- %s %s: %d %s per %s\n", *p.DependsOn, op.Value, op.Credits, p.CreditType, d.Unit)
	}
	b.WriteString("\n## Specs\n\n")
	for _, s := range d.Docs.Specs {
		fmt.Fprintf(&b, "- %s: %s\n", s.Title, s.Text)
	}
	b.WriteString("\n## Limitations\n\n")
	for _, l := range d.Docs.Limitations {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	b.WriteString("\n## Errors\n\n")
	for _, c := range d.Docs.Errors {
		fmt.Fprintf(&b, "- %s\n", c)
	}
	b.WriteString("\n## Examples\n\n")
	for _, e := range d.Examples {
		fmt.Fprintf(&b, "### %s\n\n%s\n\n```json\n%s\n```\n\n", e.Title, e.Description, e.Input)
	}
	return b.String()
}

// onlyFor names the variant values that use a field ("" when all do).
func onlyFor(d *tasks.Definition, field string) string {
	if d.Variant == nil || d.Variant.Only[field] == nil {
		return ""
	}
	return d.Variant.Field + " " + strings.Join(d.Variant.Only[field], " or ")
}

func fieldSummary(p map[string]any, required bool, only string) string {
	parts := []string{fmt.Sprint(p["type"])}
	if required {
		parts = append(parts, "required")
	}
	if e, ok := p["enum"].([]any); ok {
		parts = append(parts, "one of "+joinAny(values(p, e)))
	}
	if it, ok := p["items"].(map[string]any); ok {
		if e, ok := it["enum"].([]any); ok {
			parts = append(parts, "items one of "+joinAny(values(it, e)))
		}
		if pat, ok := it["pattern"].(string); ok {
			parts = append(parts, "items match "+pat)
		}
	}
	for _, k := range []string{"minimum", "maximum", "minItems", "maxItems", "pattern"} {
		if v, ok := p[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", k, v))
		}
	}
	if v, ok := p["default"]; ok {
		dv, _ := json.Marshal(v)
		parts = append(parts, "default "+string(dv))
	}
	if v, ok := p[tasks.VocabKeyword]; ok {
		parts = append(parts, fmt.Sprintf("vocabulary %v", v))
		if _, ok := p[tasks.AliasesKeyword]; ok {
			parts = append(parts, "its aliases accepted")
		}
	}
	if only != "" {
		parts = append(parts, "only for "+only)
	}
	return strings.Join(parts, "; ")
}

// values are the options of enum e of schema p, the vocabulary aliases it
// also accepts (AliasesKeyword) left out.
func values(p map[string]any, e []any) []any {
	aliases, _ := p[tasks.AliasesKeyword].(map[string]any)
	var out []any
	for _, v := range e {
		if s, ok := v.(string); !ok || aliases[s] == nil {
			out = append(out, v)
		}
	}
	return out
}

func joinAny(a []any) string {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}
