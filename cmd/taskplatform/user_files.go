package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/taskplatform/taskplatform/client"
	"github.com/taskplatform/taskplatform/wire"
)

// filesList is `files list`: the account's uploads, or the items of
// another kind, newest first.
func (r *userRun) filesList() *cobra.Command {
	var kind string
	var limit int
	var asJSON bool
	c := &cobra.Command{
		Use:   "list",
		Short: "your files, newest first: uploads (--kind file), job outputs (--kind art) or records",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			page, err := cl.Refs(c.Context(), kind, limit, "")
			if err != nil {
				return err
			}
			if asJSON {
				return r.printJSON(page)
			}
			tw := tabwriter.NewWriter(r.stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "FILE\tNAME\tURL")
			for _, it := range page.Items {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", it.File, refName(it), it.URL)
			}
			return tw.Flush()
		},
	}
	c.Flags().StringVar(&kind, "kind", "file", "file (uploads and registered URLs), art (job outputs) or a record kind")
	c.Flags().IntVar(&limit, "limit", 20, "how many of the newest")
	c.Flags().BoolVar(&asJSON, "json", false, "print the page as JSON")
	return c
}

// filesDownload is `files download HANDLE…`: each file's bytes into --out,
// named by its id and type (0644); it prints each path.
func (r *userRun) filesDownload() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "download HANDLE...",
		Short: "download files by handle (file:…, art:…) into --out; prints each path",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &usageError{"expected at least one argument: HANDLE"}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			for _, ref := range args {
				p, err := r.downloadRef(c.Context(), cl, ref, out)
				var usage *usageError
				if errors.As(err, &usage) {
					return err
				}
				if err != nil {
					fmt.Fprintf(r.stderr, "taskplatform: %s: %s\n", ref, describeError(err))
					return &exitError{1}
				}
				fmt.Fprintln(r.stdout, p)
			}
			return nil
		},
	}
	c.Flags().StringVarP(&out, "out", "o", ".", "folder the files are downloaded into")
	return c
}

// downloadRef downloads one handle's bytes into dir as {id}{ext}.
func (r *userRun) downloadRef(ctx context.Context, cl *client.Client, ref, dir string) (string, error) {
	info, err := cl.File(ctx, ref)
	if err != nil {
		return "", err
	}
	if info.URL == "" {
		return "", fmt.Errorf("%s has no bytes to download yet", ref)
	}
	_, id, ok := strings.Cut(ref, ":")
	if !ok || id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return "", &usageError{fmt.Sprintf("%q is not a handle such as file:abc or art:abc", ref)}
	}
	f := wire.File{URL: info.URL}
	if info.MediaType != nil {
		f.MediaType = *info.MediaType
	}
	return r.download(ctx, cl, f, dir, id+fileExt(f))
}

// panelURL is a job's page in the account panel.
func panelURL(c *client.Client, jobID string) string {
	return strings.TrimRight(c.BaseURL(), "/") + "/app/jobs/" + jobID
}

// openWeb opens url in a browser when there is one to open it with
// ($BROWSER, else xdg-open under a display, open on macOS), and says so
// on stderr; it is printed either way by the caller.
func (r *userRun) openWeb(url string) {
	opener := r.env("BROWSER")
	switch {
	case opener != "":
	case runtime.GOOS == "darwin":
		opener = "open"
	case r.env("DISPLAY") != "" || r.env("WAYLAND_DISPLAY") != "":
		opener = "xdg-open"
	default:
		return
	}
	path, err := exec.LookPath(opener)
	if err != nil {
		return
	}
	cmd := exec.Command(path, url)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(r.stderr, "taskplatform: cannot open a browser:", err)
		return
	}
	go func() { _ = cmd.Wait() }()
	fmt.Fprintf(r.stderr, "opening %s in your browser\n", url)
}

// refName is the NAME column of files list: the item's name, or for an
// upload its external id. The service names an upload or an output that
// has no name of its own by its kind ("file", "art"), which would repeat
// the handle's prefix on every row: "-" instead.
func refName(it client.RefItem) string {
	name := deref(it.Name)
	if kind, _, ok := strings.Cut(it.File, ":"); ok && name == kind {
		name = ""
	}
	if name == "" {
		name = deref(it.ExternalID)
	}
	if name == "" {
		name = "-"
	}
	return name
}

// uploadedLine tells what files upload stored: the name the file keeps,
// the type read from its bytes, its size and its handle.
func uploadedLine(rec *client.FileRecord) string {
	name := deref(rec.Name)
	if name == "" {
		name = "a file without a name"
	}
	var size int64
	if rec.Size != nil {
		size = *rec.Size
	}
	return fmt.Sprintf("uploaded %s (%s, %d bytes) as %s", name, deref(rec.MediaType), size, rec.File)
}

func (r *userRun) filesUpload() *cobra.Command {
	var externalID string
	c := &cobra.Command{
		Use:   "upload PATH",
		Short: "upload a file; prints its handle (file:…), which any task input accepts",
		Args:  oneArg("PATH"),
		RunE: func(c *cobra.Command, args []string) error {
			cl, err := r.connect(true)
			if err != nil {
				return err
			}
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			rec, err := cl.Upload(c.Context(), args[0], f, externalID)
			if err != nil {
				return err
			}
			// The handle alone on stdout, for $(taskplatform files upload …).
			fmt.Fprintln(r.stderr, uploadedLine(rec))
			fmt.Fprintln(r.stdout, rec.File)
			return nil
		},
	}
	c.Flags().StringVar(&externalID, "external-id", "", "your own id of the file (for example a product code)")
	return c
}
