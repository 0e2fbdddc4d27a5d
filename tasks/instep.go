package tasks

import (
	"errors"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// InStep turns a refusal met inside a step (a record read by handle that
// is gone or not ready, answered at submit as a 422) into the step's
// permanent failure (processing_failed) with the refusal's message; other
// errors are returned as they are, and retried.
func InStep(err error) error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return &StepError{Code: contract.ErrTypeProcessing, Message: ae.Message}
	}
	return err
}
