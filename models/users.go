package models

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gorm.io/gorm"
)

// CreateUser inserts an account; the email is stored lowercased.
func CreateUser(ctx context.Context, db *gorm.DB, email, plan string) (*User, error) {
	if plan == "" {
		plan = PlanStandard
	}
	u := &User{Email: strings.ToLower(strings.TrimSpace(email)), Plan: plan}
	if err := db.WithContext(ctx).Create(u).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return nil, fmt.Errorf("user %s already exists", u.Email)
		}
		return nil, fmt.Errorf("create user: %w", err)
	}
	return u, nil
}

// Plans an account can be on.
const (
	PlanStandard = "standard"
	PlanAppOnly  = "app_only"
)

// UserByEmail finds an account by email.
func UserByEmail(ctx context.Context, db *gorm.DB, email string) (*User, error) {
	var u User
	err := db.WithContext(ctx).Where("email = ?", strings.ToLower(strings.TrimSpace(email))).Take(&u).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("user %s: %w", email, ErrNotFound)
	}
	return &u, err
}

// UserByID finds an account by id.
func UserByID(ctx context.Context, db *gorm.DB, id uint64) (*User, error) {
	var u User
	err := db.WithContext(ctx).Take(&u, id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	return &u, err
}

// PinVersion pins an account to a dated contract version: requests without
// Service-Version and the account's webhook bodies follow it.
func PinVersion(ctx context.Context, db *gorm.DB, userID uint64, version string) error {
	res := db.WithContext(ctx).Model(&User{}).Where("id = ?", userID).Update("service_version", version)
	if res.Error == nil && res.RowsAffected == 0 {
		return fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	return res.Error
}
