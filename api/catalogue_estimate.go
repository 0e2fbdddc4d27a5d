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

// estimate validates the body exactly as a submit does and answers its cost
// ceiling; nothing is held and no job starts.
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
	input, err := d.Validate(body)
	if err != nil {
		fail(c, err)
		return
	}
	credits, creditType := d.Estimate(input)
	c.JSON(http.StatusOK, estimateView{Task: d.Name, Credits: credits, CreditType: creditType,
		Outputs: d.Runner.Plan(input).Steps, PricePerOutput: d.PricePerOutput(input)})
}
