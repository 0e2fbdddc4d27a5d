package keystore_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/keystore"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/signer"
	"github.com/taskplatform/taskplatform/testenv"
)

func TestLoad(t *testing.T) {
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		s1, err := keystore.Load(ctx, db)
		require.NoError(t, err)
		s2, err := keystore.Load(ctx, db)
		require.NoError(t, err)
		require.Equal(t, s1.JWKS(), s2.JWKS(), "the second load reads the same key")
		require.Len(t, s1.JWKS().Keys, 1)
		require.Regexp(t, `^sk_`, s1.KeyID())

		var n int64
		require.NoError(t, db.Model(&models.SigningKey{}).Count(&n).Error)
		require.EqualValues(t, 1, n)

		body := []byte(`{}`)
		now := time.Now()
		sig := s1.Sign("whd_x", 7, now.Unix(), body)
		require.NoError(
			t,
			signer.Verify(s2.JWKS(), "whd_x", "7", strconv.FormatInt(now.Unix(), 10), sig, body, now, time.Minute),
		)
	})
}

func TestLoadConcurrent(t *testing.T) {
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		const n = 2
		signers := make([]*signer.Signer, n)
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				signers[i], errs[i] = keystore.Load(ctx, db)
			})
		}
		close(start)
		wg.Wait()
		for i := range n {
			require.NoError(t, errs[i])
		}
		require.Equal(t, signers[0].KeyID(), signers[1].KeyID())
		require.Equal(t, signers[0].JWKS(), signers[1].JWKS())

		var count int64
		require.NoError(t, db.Model(&models.SigningKey{}).Count(&count).Error)
		require.EqualValues(t, 1, count, "one key however many processes start at once")
	})
}

func TestLoadKeepsRetiredKeysPublished(t *testing.T) {
	ctx := context.Background()
	testenv.EachDB(t, func(t *testing.T, db *gorm.DB) {
		old, err := keystore.Load(ctx, db)
		require.NoError(t, err)
		require.NoError(t, db.Model(&models.SigningKey{}).Where("id = ?", old.KeyID()).Update("active", false).Error)

		cur, err := keystore.Load(ctx, db)
		require.NoError(t, err)
		require.NotEqual(t, old.KeyID(), cur.KeyID(), "a new active key is made")
		require.Len(t, cur.JWKS().Keys, 2)
		require.Equal(t, cur.KeyID(), cur.JWKS().Keys[0].Kid, "the signing key comes first")

		body := []byte(`{"a":1}`)
		now := time.Now()
		ts := strconv.FormatInt(now.Unix(), 10)
		require.NoError(
			t,
			signer.Verify(cur.JWKS(), "whd_1", "1", ts, old.Sign("whd_1", 1, now.Unix(), body), body, now, time.Minute),
		)
	})
}
