// Package workflows holds JobWorkflow and WebhookDeliveryWorkflow and the
// replay tests of their recorded histories. It depends on the Temporal SDK
// and the contract package only: activities are named through contract.
package workflows
