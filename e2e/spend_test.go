package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// TestSpendLimitsHoldAcrossABurstFromTwoKeys: 40 submits at once from two
// keys of one account, under the account's daily limit of ten jobs and the
// first key's monthly limit of four, never hold or charge more than either
// limit; the submits past them answer 402 spend_limit_reached naming the
// limit, and the thresholds reached (50, 80 and 100 % of the account's:
// its refusals reached it) arrive once each as signed spend.threshold
// events.
func TestSpendLimitsHoldAcrossABurstFromTwoKeys(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 100000, rootCAs: rcv.pool()})
	ctx := context.Background()
	_, secret2, err := models.CreateKey(ctx, s.db, s.userID, nil, nil, api.CurrentVersion)
	require.NoError(t, err)
	require.NoError(t, s.db.Create(&models.WebhookEndpoint{ID: models.NewID("whe_"), UserID: s.userID,
		URL: rcv.srv.URL + "/spend", Events: contract.EventSpendThreshold}).Error)
	est := s.do(http.MethodPost, "/v1/tasks/pattern.generate/estimate", pattern(1))
	require.Equal(t, http.StatusOK, est.status, "%s", est.body)
	price := int64(est.json(t)["credits"].(float64))
	accountLimit, keyLimit := 10*price+price/2, 4*price
	for _, l := range []models.SpendLimit{{Period: contract.SpendDay, Credits: accountLimit},
		{APIKeyID: s.keyID, Period: contract.SpendMonth, Credits: keyLimit}} {
		l.UserID, l.CreditType = s.userID, contract.CreditService
		_, err := models.SetSpendLimit(ctx, s.db, l)
		require.NoError(t, err)
	}

	keys := []string{s.key, secret2}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		refused []map[string]any
		started int
	)
	for i := range 40 {
		wg.Go(func() {
			body, _ := json.Marshal(map[string]any{"kind": "stripes", "colors": []string{"#1F3A5F"}, "count": 1,
				"seed": i})
			req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/v1/tasks/pattern.generate", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			req.Header.Set("Authorization", "Key "+keys[i%2])
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			raw, _ := io.ReadAll(res.Body)
			mu.Lock()
			defer mu.Unlock()
			switch res.StatusCode {
			case http.StatusAccepted:
				started++
			case http.StatusPaymentRequired:
				var e struct{ Error map[string]any }
				require.NoError(t, json.Unmarshal(raw, &e))
				refused = append(refused, e.Error)
			default:
				t.Errorf("submit answered %d: %s", res.StatusCode, raw)
			}
		})
	}
	wg.Wait()
	require.Equal(t, 40, started+len(refused))
	require.NotEmpty(t, refused)
	for _, e := range refused {
		require.Equal(t, "spend_limit_reached", e["code"])
		c := e["ctx"].(map[string]any)
		require.EqualValues(t, price, c["required"])
		require.Contains(t, []any{contract.SpendAccount, contract.SpendKey}, c["scope"])
		if c["scope"] == contract.SpendAccount {
			require.Equal(t, contract.SpendDay, c["period"])
			require.EqualValues(t, accountLimit, c["limit"])
		} else {
			require.Equal(t, contract.SpendMonth, c["period"])
			require.EqualValues(t, keyLimit, c["limit"])
		}
		resets, err := time.Parse(time.RFC3339, c["resets_at"].(string))
		require.NoError(t, err)
		require.True(t, resets.After(time.Now()))
	}

	type spend struct {
		APIKeyID string
		Spent    int64
		Jobs     int
	}
	var per []spend
	require.NoError(t, s.db.Model(&models.Job{}).Where("user_id = ? AND held_credits > 0", s.userID).
		Select("api_key_id, SUM(CASE WHEN settled_at IS NULL THEN held_credits ELSE charged_credits END) AS spent, "+
			"COUNT(*) AS jobs").Group("api_key_id").Scan(&per).Error)
	var total, first int64
	jobs := 0
	for _, p := range per {
		total += p.Spent
		jobs += p.Jobs
		if p.APIKeyID == s.keyID {
			first = p.Spent
		}
	}
	require.LessOrEqual(t, total, accountLimit, "the account's limit is never passed")
	require.LessOrEqual(t, first, keyLimit, "nor the key's")
	require.Equal(t, 10, jobs, "as many as fit are admitted; a refused submit holds nothing")
	require.Equal(t, int64(100000)-total, s.balance(), "the balance lost only what the admitted hold or were charged")

	// The account reached 50 and 80 % of its limit (10 of 10.5 jobs) and
	// 100 % when it refused a submit (at least ten of the second key's
	// were); the first key what its jobs brought it to (the 100 % of a
	// key limit that refuses lands on it).
	want := map[string]bool{}
	for _, pct := range contract.SpendThresholds {
		want[fmt.Sprint(contract.SpendAccount, contract.SpendDay, pct)] = true
		if first*100 >= int64(pct)*keyLimit {
			want[fmt.Sprint(contract.SpendKey, contract.SpendMonth, pct)] = true
		}
	}
	require.Eventually(t, func() bool { return len(rcv.deliveries()) >= len(want) }, 30*time.Second,
		50*time.Millisecond)
	time.Sleep(500 * time.Millisecond) // nothing more arrives
	got := rcv.deliveries()
	require.Len(t, got, len(want), "each threshold once")
	set := s.jwks(t)
	seen := map[string]bool{}
	for _, d := range got {
		verify(t, set, d)
		require.Equal(t, contract.EventSpendThreshold, d.event["event"])
		key := fmt.Sprint(d.event["scope"], d.event["period"], d.event["threshold"])
		require.False(t, seen[key], "a threshold arrives once: %v", d.event)
		seen[key] = true
		if d.event["threshold"] == float64(100) && d.event["scope"] == contract.SpendAccount {
			require.LessOrEqual(t, d.event["spent"], float64(accountLimit), "what the period had spent")
		}
	}
	require.Equal(t, want, seen, "50, 80 and 100 % of the account's limit")
}
