package models

import (
	"context"

	"gorm.io/gorm"
)

// MigrateTo applies the migrations up to and including id, for tests of
// what a migration does to the rows written before it.
func MigrateTo(ctx context.Context, db *gorm.DB, id string) error {
	return migrator(db.WithContext(ctx)).MigrateTo(id)
}
