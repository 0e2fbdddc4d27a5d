package client

import (
	"context"
	"net/url"
)

// Price is a task's row of the price list (GET /v1/pricing).
type Price struct {
	Task       string `json:"task"`
	CreditType string `json:"credit_type"`
	Unit       string `json:"unit"`
	// PerOutput is the credits per delivered output when the price is
	// flat; nil when it depends on an option.
	PerOutput *int64 `json:"per_output"`
	// DependsOn names the input option the price depends on; nil when it
	// is flat.
	DependsOn *string `json:"depends_on"`
	// Prices are the credits per output for each value of DependsOn.
	Prices []OptionPrice `json:"prices"`
	Note   string        `json:"note"`
}

// OptionPrice is the credits per output for one value of the option a
// price depends on.
type OptionPrice struct {
	Value   string `json:"value"`
	Credits int64  `json:"credits"`
}

// Prices reads the price list, every page.
func (c *Client) Prices(ctx context.Context) ([]Price, error) {
	var out []Price
	cursor := ""
	for {
		path := "/v1/pricing?limit=100"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var page struct {
			Items      []Price `json:"items"`
			HasMore    bool    `json:"has_more"`
			NextCursor string  `json:"next_cursor"`
		}
		if err := c.getJSON(ctx, path, &page); err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if !page.HasMore || page.NextCursor == "" {
			return out, nil
		}
		cursor = page.NextCursor
	}
}
