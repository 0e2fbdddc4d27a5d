package api

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestKeysPerAccountAreBounded creates keys in the panel up to
// limits.api_keys.max_per_account active ones: one more answers 422
// too_many_api_keys; a revoked key frees its place. Before, 40 of 40 were
// created.
func TestKeysPerAccountAreBounded(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newEnv(t, b)
			h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
			max := contract.DefaultLimits().APIKeys.MaxPerAccount
			var last string
			for i := 1; i < max; i++ { // the env's account has a key already
				res := e.send(http.MethodPost, "/v1/account/keys", `{}`, h...)
				require.Equal(t, http.StatusCreated, res.code, "key %d: %s", i+1, res.body)
				last = res.obj(t)["id"].(string)
			}
			over := e.send(http.MethodPost, "/v1/account/keys", `{}`, h...)
			require.Equal(t, http.StatusUnprocessableEntity, over.code, "%s", over.body)
			require.Equal(t, "too_many_api_keys", over.errCode(t))
			require.Equal(t, "invalid_request", over.errObj(t)["type"])
			require.Contains(t, over.errObj(t)["message"], fmt.Sprint(max))

			rolled := e.send(http.MethodPost, "/v1/account/keys/"+last+"/roll", `{"grace_period_seconds":60}`, h...)
			require.Equal(
				t,
				http.StatusCreated,
				rolled.code,
				"rolling replaces a key, at the limit too: %s",
				rolled.body,
			)
			require.Equal(t, http.StatusOK, e.send(http.MethodDelete, "/v1/account/keys/"+last, "", h...).code)
			require.Equal(
				t,
				http.StatusUnprocessableEntity,
				e.send(http.MethodPost, "/v1/account/keys", `{}`, h...).code,
				"the rolled key's successor holds its place",
			)
			require.Equal(
				t,
				http.StatusOK,
				e.send(http.MethodDelete, "/v1/account/keys/"+rolled.obj(t)["id"].(string), "", h...).code,
			)
			require.Equal(
				t,
				http.StatusCreated,
				e.send(http.MethodPost, "/v1/account/keys", `{}`, h...).code,
				"a revoked key frees its place",
			)
		})
	}
}

// TestWebhookEndpointsPerAccountAreBoundedAndDistinct registers endpoints in
// the panel: a second endpoint at an address the account has one at
// already answers 422 webhook_endpoint_exists naming url (spelt
// differently too, or by changing another endpoint's url), and one more
// than limits.webhook_endpoints.max_per_account answers 422
// too_many_webhook_endpoints. Before, duplicates and any number were taken
// (an 8-output job to 60 endpoints made 540 deliveries).
func TestWebhookEndpointsPerAccountAreBoundedAndDistinct(t *testing.T) {
	t.Parallel()
	for _, b := range testenv.Backends {
		t.Run(string(b), func(t *testing.T) {
			e := newEnv(t, b)
			h := with(e.signIn(), "Content-Type", "application/json", "Sec-Fetch-Site", "same-origin")
			register := func(url string) answer {
				return e.send(http.MethodPost, "/v1/account/webhooks", fmt.Sprintf(`{"url":%q}`, url), h...)
			}
			first := register("https://93.184.216.34/hooks/a")
			require.Equal(t, http.StatusCreated, first.code, "%s", first.body)
			firstID := first.obj(t)["id"].(string)
			for _, same := range []string{"https://93.184.216.34/hooks/a", "https://93.184.216.34:443/hooks/a",
				"https://93.184.216.34/hooks/a#x"} {
				res := register(same)
				require.Equal(t, http.StatusUnprocessableEntity, res.code, "%s: %s", same, res.body)
				require.Equal(t, "webhook_endpoint_exists", res.errCode(t))
				require.Equal(t, "url", res.errObj(t)["field"])
				require.Contains(t, res.errObj(t)["message"], firstID)
			}

			max := contract.DefaultLimits().WebhookEndpoints.MaxPerAccount
			var second string
			for i := 2; i <= max; i++ {
				res := register(fmt.Sprintf("https://93.184.216.34/hooks/%d", i))
				require.Equal(t, http.StatusCreated, res.code, "endpoint %d: %s", i, res.body)
				if second == "" {
					second = res.obj(t)["id"].(string)
				}
			}
			over := register("https://93.184.216.34/hooks/one-more")
			require.Equal(t, http.StatusUnprocessableEntity, over.code, "%s", over.body)
			require.Equal(t, "too_many_webhook_endpoints", over.errCode(t))
			require.Equal(t, "url", over.errObj(t)["field"])

			moved := e.send(
				http.MethodPatch,
				"/v1/account/webhooks/"+second,
				`{"url":"https://93.184.216.34/hooks/a"}`,
				h...)
			require.Equal(t, http.StatusUnprocessableEntity, moved.code, "%s", moved.body)
			require.Equal(t, "webhook_endpoint_exists", moved.errCode(t))
			same := e.send(
				http.MethodPatch,
				"/v1/account/webhooks/"+firstID,
				`{"url":"https://93.184.216.34/hooks/a","events":["job.failed"]}`,
				h...)
			require.Equal(t, http.StatusOK, same.code, "an endpoint keeps its own url: %s", same.body)

			require.Equal(t, http.StatusOK, e.send(http.MethodDelete, "/v1/account/webhooks/"+second, "", h...).code)
			require.Equal(
				t,
				http.StatusCreated,
				register("https://93.184.216.34/hooks/one-more").code,
				"a removed endpoint frees its place",
			)
		})
	}
}
