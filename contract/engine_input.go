package contract

// EngineInputPath is where the API serves a copy of a caller's file to a
// model server: EngineInputPath + a compact JWS (signed by the service's
// signing key, type EngineInputType) whose payload is an EngineInput.
const EngineInputPath = "/files/engine/"

// EngineInputType is the JWS type of an engine input's grant.
const EngineInputType = "tp-engine-input"

// EngineInputPrefix starts the blob key of every engine input copy: a grant
// names no other blob.
const EngineInputPrefix = "engine-inputs/"

// EngineInput is the grant a model server's URL of one input file carries:
// the blob it may read, its media type, and until when (Unix seconds).
type EngineInput struct {
	Key       string `json:"key"`
	MediaType string `json:"media_type"`
	Expires   int64  `json:"exp"`
}
