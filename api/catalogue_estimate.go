package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

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
}

// estimate runs every check of the body a submit runs — the schema, the
// image references and the task's own checks on the account's records —
// and answers its cost ceiling; nothing is held or written and no job
// starts.
func (h *catalogueHandlers) estimate(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		fail(c, err)
		return
	}
	body, err := readJSONBody(c, contract.DefaultLimits().Request.MaxBodyBytes)
	if err != nil {
		fail(c, err)
		return
	}
	input, err := h.d.checkInput(c, d, body)
	if err != nil {
		fail(c, err)
		return
	}
	if err := h.d.admitRecords(c, d, "", input); err != nil {
		fail(c, err)
		return
	}
	credits, creditType := d.Estimate(input)
	c.JSON(http.StatusOK, estimateView{Task: d.Name, Credits: credits, CreditType: creditType,
		Outputs: d.Runner.Plan(input).Steps, PricePerOutput: d.PricePerOutput(input)})
}
