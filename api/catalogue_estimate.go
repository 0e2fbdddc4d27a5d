package api

import (
	"time"

	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/contract"
)

// estimateView is the answer of POST /v1/tasks/{name}/estimate: the ceiling
// of the job's cost, the credit type, the outputs planned and the price of
// one (a job is charged price_per_output × outputs delivered).
type estimateView struct {
	Task           string `json:"task"`
	Credits        int64  `json:"credits"`
	CreditType     string `json:"credit_type"`
	Outputs        int    `json:"outputs"`
	PricePerOutput int64  `json:"price_per_output"`
	// ValidUntil is how long the price holds: a submit before it holds
	// these credits unless a release changes prices meanwhile. Send them as
	// X-Service-Max-Credits to be sure of the ceiling whatever happens.
	ValidUntil time.Time `json:"valid_until"`
}

// estimateValidity is how long an estimate's price is promised.
const estimateValidity = time.Hour

// estimate runs every check a submit runs before its hold — the headers
// (X-Service-Max-Credits: 402 max_credits_exceeded above it, as a submit
// answers), the schema, the image references and the task's own checks on
// the account's records — and answers its cost ceiling; nothing is held or
// written and no job starts.
func (h *catalogueHandlers) estimate(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	lim := contract.DefaultLimits()
	opts, err := parseSubmitOptions(c, lim)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	body, err := middleware.ReadJSONBody(c, lim.Request.MaxBodyBytes)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	input, err := h.d.checkInput(c, d, body)
	if err != nil {
		middleware.Fail(c, err)
		return
	}
	credits, creditType := d.Estimate(input)
	if err := opts.overCeiling(credits); err != nil {
		middleware.Fail(c, err)
		return
	}
	if err := h.d.admitRecords(c, d, "", input); err != nil {
		middleware.Fail(c, err)
		return
	}
	c.JSON(http.StatusOK, estimateView{Task: d.Name, Credits: credits, CreditType: creditType,
		Outputs: d.Runner.Plan(input).Steps, PricePerOutput: d.PricePerOutput(input),
		ValidUntil: h.d.now().Add(estimateValidity).Truncate(time.Second)})
}
