package workflows

// FairnessDynamicConfig is the Temporal server's dynamic config (server
// 1.29, as the pinned CLI's dev server) that makes its task queues honour
// priority keys (the new matcher) and fairness keys; the dev servers of
// `taskplatform dev` and the tests start with it, and a cluster needs the
// same (docker-compose.temporal.yml, the README).
var FairnessDynamicConfig = []string{"matching.useNewMatcher=true", "matching.enableFairness=true"}

// DevServerArgs are the `temporal server start-dev` arguments of
// FairnessDynamicConfig.
func DevServerArgs() []string {
	var out []string
	for _, v := range FairnessDynamicConfig {
		out = append(out, "--dynamic-config-value", v)
	}
	return out
}
