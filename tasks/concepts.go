package tasks

// Concept is an idea the catalogue refers to, served at GET /v1/concepts.
// A family leaves ProducedBy and UsedBy empty: the catalogue builds them
// from the Produces and Uses of every task.
type Concept struct {
	Name       string   `json:"name"`
	Short      string   `json:"short"`
	Long       string   `json:"long"`
	Related    []string `json:"related"`
	ProducedBy []string `json:"produced_by"`
	UsedBy     []string `json:"used_by"`
}
