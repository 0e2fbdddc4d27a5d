package main

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
	"gocloud.dev/blob"

	"github.com/taskplatform/taskplatform/testenv"
	"github.com/taskplatform/taskplatform/workflows"
)

// stringList is a compose field written as a string or a list of strings.
type stringList []string

// UnmarshalYAML accepts `x y` and `["x", "y"]`.
func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = strings.Fields(n.Value)
		return nil
	}
	var s []string
	if err := n.Decode(&s); err != nil {
		return err
	}
	*l = s
	return nil
}

// envMap is a compose environment, written as a map or as NAME=value lines.
type envMap map[string]string

// UnmarshalYAML accepts both forms of environment.
func (e *envMap) UnmarshalYAML(n *yaml.Node) error {
	*e = envMap{}
	if n.Kind == yaml.SequenceNode {
		var items []string
		if err := n.Decode(&items); err != nil {
			return err
		}
		for _, it := range items {
			k, v, _ := strings.Cut(it, "=")
			(*e)[k] = v
		}
		return nil
	}
	var m map[string]any
	if err := n.Decode(&m); err != nil {
		return err
	}
	for k, v := range m {
		if v == nil {
			(*e)[k] = ""
		} else {
			(*e)[k] = fmt.Sprint(v)
		}
	}
	return nil
}

// dependsOn is depends_on, as a list of services or a map with conditions.
type dependsOn map[string]string

// UnmarshalYAML accepts both forms of depends_on.
func (d *dependsOn) UnmarshalYAML(n *yaml.Node) error {
	*d = dependsOn{}
	if n.Kind == yaml.SequenceNode {
		var names []string
		if err := n.Decode(&names); err != nil {
			return err
		}
		for _, s := range names {
			(*d)[s] = "service_started"
		}
		return nil
	}
	var m map[string]struct {
		Condition string `yaml:"condition"`
	}
	if err := n.Decode(&m); err != nil {
		return err
	}
	for s, c := range m {
		(*d)[s] = c.Condition
	}
	return nil
}

type composeService struct {
	Image       string     `yaml:"image"`
	Build       yaml.Node  `yaml:"build"`
	Command     stringList `yaml:"command"`
	Entrypoint  stringList `yaml:"entrypoint"`
	Environment envMap     `yaml:"environment"`
	DependsOn   dependsOn  `yaml:"depends_on"`
	Ports       []string   `yaml:"ports"`
	Volumes     []string   `yaml:"volumes"`
}

type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

func loadCompose(t *testing.T) (composeFile, string) {
	t.Helper()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(root, "docker-compose.temporal.yml"))
	require.NoError(t, err)
	var f composeFile
	require.NoError(t, yaml.Unmarshal(raw, &f))
	return f, root
}

// The services built from the Dockerfile, and the subcommand each runs.
var appServices = map[string]string{"migrate": "migrate", "api": "api", "worker": "worker"}

func TestComposeAppServices(t *testing.T) {
	f, root := loadCompose(t)
	for name, sub := range appServices {
		t.Run(name, func(t *testing.T) {
			svc, ok := f.Services[name]
			require.True(t, ok, "service %s exists", name)

			var build struct {
				Context    string `yaml:"context"`
				Dockerfile string `yaml:"dockerfile"`
			}
			switch svc.Build.Kind {
			case yaml.ScalarNode:
				build.Context = svc.Build.Value
			case yaml.MappingNode, yaml.AliasNode:
				require.NoError(t, svc.Build.Decode(&build))
			default:
				t.Fatalf("service %s is not built from the Dockerfile", name)
			}
			require.Equal(t, ".", build.Context)
			if build.Dockerfile == "" {
				build.Dockerfile = "Dockerfile"
			}
			require.FileExists(t, filepath.Join(root, build.Dockerfile))

			require.Empty(t, svc.Entrypoint, "the image's entrypoint is the binary")
			require.NotEmpty(t, svc.Command)
			_, real := commands[svc.Command[0]]
			require.True(t, real, "command %q is a subcommand of the binary", svc.Command[0])
			require.Equal(t, sub, svc.Command[0])

			for k := range svc.Environment {
				require.True(
					t,
					strings.HasPrefix(k, "TP_"),
					"%s sets %s: the binary reads only TP_* variables",
					name,
					k,
				)
				require.Contains(t, envVars, k, "%s sets %s, which the binary does not read", name, k)
			}
			required := []string{"TP_DATABASE_URL"}
			if name != "migrate" {
				required = append(required, "TP_TEMPORAL_ADDRESS")
				require.Equal(
					t,
					"service_completed_successfully",
					svc.DependsOn["migrate"],
					"%s waits for the migrations",
					name,
				)
				require.Contains(t, svc.DependsOn, "temporal")
			}
			for _, k := range required {
				require.NotEmpty(t, svc.Environment[k], "%s needs %s", name, k)
			}

			// The values are ones the binary accepts, naming compose services.
			clearEnv(t)
			for k, v := range svc.Environment {
				t.Setenv(k, v)
			}
			cfg, err := loadConfig()
			require.NoError(t, err)
			db, err := url.Parse(cfg.DatabaseURL)
			require.NoError(t, err)
			require.Equal(t, "postgres", db.Scheme)
			require.Contains(t, f.Services, db.Hostname(), "TP_DATABASE_URL names a compose service")
			if name != "migrate" {
				host, _, err := net.SplitHostPort(cfg.TemporalAddress)
				require.NoError(t, err)
				require.Contains(t, f.Services, host, "TP_TEMPORAL_ADDRESS names a compose service")
			}
		})
	}
}

func TestComposeNetworkAndStorage(t *testing.T) {
	f, _ := loadCompose(t)
	api, worker := f.Services["api"], f.Services["worker"]

	// api listens on every interface on a published port; so do worker metrics.
	for _, c := range []struct {
		svc        composeService
		name, addr string
	}{{api, "api", "TP_HTTP_ADDR"}, {worker, "worker", "TP_METRICS_ADDR"}} {
		host, port, err := net.SplitHostPort(c.svc.Environment[c.addr])
		require.NoError(t, err, "%s %s", c.name, c.addr)
		require.Contains(t, []string{"", "0.0.0.0"}, host, "%s must listen beyond the container's loopback", c.name)
		require.True(t, slices.ContainsFunc(c.svc.Ports, func(p string) bool { return strings.HasSuffix(p, ":"+port) }),
			"%s publishes port %s: %v", c.name, port, c.svc.Ports)
	}

	// The worker writes the files the api serves: same database, same blob store.
	require.Equal(t, api.Environment["TP_DATABASE_URL"], worker.Environment["TP_DATABASE_URL"])
	require.Equal(t, api.Environment["TP_TEMPORAL_ADDRESS"], worker.Environment["TP_TEMPORAL_ADDRESS"])
	blobURL := api.Environment["TP_BLOB_URL"]
	require.NotEmpty(t, blobURL)
	require.Equal(t, blobURL, worker.Environment["TP_BLOB_URL"])
	if strings.HasPrefix(blobURL, "file://") {
		u, err := url.Parse(blobURL)
		require.NoError(t, err)
		for _, svc := range []composeService{api, worker} {
			require.True(t, slices.ContainsFunc(svc.Volumes, func(v string) bool {
				parts := strings.Split(v, ":")
				_, named := f.Volumes[parts[0]]
				return len(parts) >= 2 && named && strings.HasPrefix(u.Path, parts[1])
			}), "a file:// blob store must be a shared named volume: %v", svc.Volumes)
		}
		// The volume is a mount of its own: a write whose temporary file
		// were made in the container's /tmp would fail to rename into it
		// (invalid cross-device link). Written with the same options and an
		// unusable TMPDIR, a blob still lands.
		dir := t.TempDir()
		t.Setenv("TMPDIR", filepath.Join(dir, "no-such-tmp"))
		b, err := blob.OpenBucket(context.Background(), "file://"+dir+"/blobs?"+u.RawQuery)
		require.NoError(t, err)
		defer func() { _ = b.Close() }()
		require.NoError(
			t,
			b.WriteAll(context.Background(), "jobs/j_1/0.png", []byte("bytes"), nil),
			"TP_BLOB_URL %s",
			blobURL,
		)
	}

	// Temporal with PostgreSQL persistence, its UI, PostgreSQL.
	temporal := f.Services["temporal"]
	require.True(t, strings.HasPrefix(temporal.Image, "temporalio/auto-setup:"), temporal.Image)
	require.Equal(t, "postgres12", temporal.Environment["DB"])
	require.Contains(t, f.Services, temporal.Environment["POSTGRES_SEEDS"])
	require.True(t, strings.HasPrefix(f.Services[temporal.Environment["POSTGRES_SEEDS"]].Image, "postgres:"))
	ui := f.Services["temporal-ui"]
	require.True(t, strings.HasPrefix(ui.Image, "temporalio/ui:"), ui.Image)
	require.Equal(t, api.Environment["TP_TEMPORAL_ADDRESS"], ui.Environment["TEMPORAL_ADDRESS"])
}

func TestDockerfile(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	require.NoError(t, err)
	df := string(raw)
	var froms []string
	for _, l := range lines(df) {
		if f := strings.Fields(l); len(f) >= 2 && strings.EqualFold(f[0], "FROM") {
			froms = append(froms, f[1])
		}
	}
	require.Len(t, froms, 2, "multi-stage: build, then runtime")
	require.Equal(t, "golang:1.26", froms[0])
	require.NotContains(t, froms[1], "golang", "the runtime image is small")
	require.Contains(t, df, "./cmd/taskplatform")
	require.Contains(t, df, "CGO_ENABLED=0", "a static binary for a minimal runtime image")
	require.Regexp(t, `(?m)^ENTRYPOINT \["/usr/local/bin/taskplatform"\]`, df)

	ignore, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	require.NoError(t, err)
	for _, p := range []string{".git", "bin/", ".data/"} {
		require.Contains(t, lines(string(ignore)), p, ".dockerignore keeps %s out of the build context", p)
	}
}

// The compose Temporal gets the dynamic config that dispatches by priority
// and by account: the mounted file is the one its DYNAMIC_CONFIG_FILE_PATH
// names, and it sets every value workflows.FairnessDynamicConfig lists.
func TestComposeTemporalDynamicConfig(t *testing.T) {
	f, root := loadCompose(t)
	temporal := f.Services["temporal"]
	path := temporal.Environment["DYNAMIC_CONFIG_FILE_PATH"]
	require.NotEmpty(t, path, "the temporal service names its dynamic config")
	var mounted string
	for _, v := range temporal.Volumes {
		parts := strings.Split(v, ":")
		if len(parts) >= 2 && parts[1] == "/etc/temporal/"+path {
			mounted = parts[0]
		}
	}
	require.NotEmpty(t, mounted, "%s is mounted into the temporal service: %v", path, temporal.Volumes)
	raw, err := os.ReadFile(filepath.Join(root, mounted))
	require.NoError(t, err)
	var cfg map[string][]struct {
		Value any `yaml:"value"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	for _, kv := range workflows.FairnessDynamicConfig {
		key, want, _ := strings.Cut(kv, "=")
		require.Len(t, cfg[key], 1, "%s sets %s", mounted, key)
		require.Equal(t, want, fmt.Sprint(cfg[key][0].Value), "%s: %s", mounted, key)
	}
}
