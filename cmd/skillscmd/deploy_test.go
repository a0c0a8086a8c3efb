package skillscmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"
)

// The parts of deploy/kubernetes/*.yaml the test runs.
type (
	k8sDeployment struct {
		Spec struct {
			Template struct {
				Spec struct {
					TerminationGracePeriodSeconds int `yaml:"terminationGracePeriodSeconds"`
					SecurityContext               struct {
						RunAsNonRoot bool `yaml:"runAsNonRoot"`
						RunAsUser    int  `yaml:"runAsUser"`
					} `yaml:"securityContext"`
					Containers []k8sContainer `yaml:"containers"`
					Volumes    []struct {
						Name   string `yaml:"name"`
						Secret *struct {
							SecretName string `yaml:"secretName"`
						} `yaml:"secret"`
						EmptyDir *struct{} `yaml:"emptyDir"`
					} `yaml:"volumes"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	k8sContainer struct {
		Command []string `yaml:"command"`
		Args    []string `yaml:"args"`
		Env     []struct {
			Name  string `yaml:"name"`
			Value string `yaml:"value"`
		} `yaml:"env"`
		EnvFrom []struct {
			ConfigMapRef *struct {
				Name string `yaml:"name"`
			} `yaml:"configMapRef"`
		} `yaml:"envFrom"`
		Ports []struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
		} `yaml:"ports"`
		StartupProbe   *k8sProbe `yaml:"startupProbe"`
		ReadinessProbe *k8sProbe `yaml:"readinessProbe"`
		LivenessProbe  *k8sProbe `yaml:"livenessProbe"`
		Resources      struct {
			Requests map[string]string `yaml:"requests"`
			Limits   map[string]string `yaml:"limits"`
		} `yaml:"resources"`
		SecurityContext struct {
			ReadOnlyRootFilesystem bool `yaml:"readOnlyRootFilesystem"`
		} `yaml:"securityContext"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	}
	k8sProbe struct {
		HTTPGet struct {
			Path string `yaml:"path"`
			Port string `yaml:"port"`
		} `yaml:"httpGet"`
		PeriodSeconds    int `yaml:"periodSeconds"`
		FailureThreshold int `yaml:"failureThreshold"`
	}
	k8sService struct {
		Spec struct {
			Ports []struct {
				TargetPort string `yaml:"targetPort"`
			} `yaml:"ports"`
		} `yaml:"spec"`
	}
	k8sConfigMap struct {
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Data map[string]string `yaml:"data"`
	}
	k8sSecret struct {
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		StringData map[string]string `yaml:"stringData"`
	}
)

func readYAML(t *testing.T, name string, into any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "kubernetes", name))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(false)
	if err := dec.Decode(into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// dockerfile reads the run stage's ENTRYPOINT, USER, VOLUME and ENV lines.
func dockerfile(t *testing.T) (entrypoint, user string, volumes []string, env map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	env = map[string]string{}
	globalArgs := map[string]bool{} // ARGs before the first FROM: the only ones a FROM may use
	seenFrom := false
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		rest := strings.TrimSpace(strings.TrimPrefix(line, f[0]))
		switch f[0] {
		case "ARG":
			if !seenFrom {
				name, _, _ := strings.Cut(f[1], "=")
				globalArgs[name] = true
			}
		case "FROM":
			seenFrom = true
			if name, ok := strings.CutPrefix(f[1], "${"); ok && !globalArgs[strings.TrimSuffix(name, "}")] {
				t.Errorf("Dockerfile: FROM %s uses an ARG not declared before the first FROM", f[1])
			}
		case "ENTRYPOINT":
			var ep []string
			if err := json.Unmarshal([]byte(rest), &ep); err != nil || len(ep) != 1 {
				t.Fatalf("Dockerfile ENTRYPOINT %s: want one path in JSON form", rest)
			}
			entrypoint = ep[0]
		case "USER":
			user = rest
		case "VOLUME":
			if err := json.Unmarshal([]byte(rest), &volumes); err != nil {
				t.Fatalf("Dockerfile VOLUME %s: %v", rest, err)
			}
		case "ENV":
			for _, kv := range f[1:] {
				if k, v, ok := strings.Cut(kv, "="); ok {
					env[k] = v
				}
			}
		}
	}
	return entrypoint, user, volumes, env
}

// mebibytes parses a Kubernetes memory quantity in Mi or Gi.
func mebibytes(t *testing.T, q string) int {
	t.Helper()
	for suffix, mul := range map[string]int{"Mi": 1, "Gi": 1024} {
		if n, ok := strings.CutSuffix(q, suffix); ok {
			v, err := strconv.Atoi(n)
			if err == nil {
				return v * mul
			}
		}
	}
	t.Fatalf("memory quantity %q: want NMi or NGi", q)
	return 0
}

// procMiB reads a VmRSS-like line of /proc/pid/status in MiB.
func procMiB(t *testing.T, pid int, field string) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// TestDeployManifests runs the binary exactly as deploy/kubernetes declares
// it: the container's command (the Dockerfile's ENTRYPOINT), arguments and
// environment, with the content repo pointed at a local go-git remote, each
// mount at a temporary folder and the Secret's keys as files in it. The
// probes must pass as the kubelet sends them (no credentials), an MCP client
// with the token from the Secret gets a skill of the repo, the memory
// figures must hold what the process uses, and SIGTERM must end it within
// the grace period. A manifest that drifts from the binary fails here.
func TestDeployManifests(t *testing.T) {
	t.Parallel()
	var dep k8sDeployment
	var svc k8sService
	var secret k8sSecret
	readYAML(t, "deployment.yaml", &dep)
	readYAML(t, "service.yaml", &svc)
	readYAML(t, "secret.example.yaml", &secret)
	var pin k8sConfigMap
	readYAML(t, "configmap.yaml", &pin)
	pod := dep.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]

	// The image and the manifest agree.
	entrypoint, user, volumes, imageEnv := dockerfile(t)
	if len(c.Command) != 1 || c.Command[0] != entrypoint {
		t.Errorf("command %v, want the Dockerfile's ENTRYPOINT [%s]", c.Command, entrypoint)
	}
	if uid, _, _ := strings.Cut(user, ":"); uid != strconv.Itoa(pod.SecurityContext.RunAsUser) || uid == "0" || !pod.SecurityContext.RunAsNonRoot {
		t.Errorf("Dockerfile USER %s, pod runAsUser %d (runAsNonRoot %v): want one non-root user", user, pod.SecurityContext.RunAsUser, pod.SecurityContext.RunAsNonRoot)
	}
	if !c.SecurityContext.ReadOnlyRootFilesystem {
		t.Error("readOnlyRootFilesystem is not set")
	}
	mounts := map[string]string{} // mount path → temporary folder
	for _, m := range c.VolumeMounts {
		mounts[m.MountPath] = filepath.Join(t.TempDir(), m.Name)
		if err := os.MkdirAll(mounts[m.MountPath], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range volumes {
		if _, ok := mounts[v]; !ok {
			t.Errorf("the Dockerfile's VOLUME %s is not mounted in the Deployment", v)
		}
	}
	manifestEnv := map[string]string{}
	for _, e := range c.Env {
		manifestEnv[e.Name] = e.Value
	}
	for k, v := range imageEnv {
		if mv, ok := manifestEnv[k]; ok && mv != v {
			t.Errorf("%s is %s in the Dockerfile and %s in the Deployment", k, v, mv)
		}
	}

	// The port the arguments listen on is the container port the probes and
	// the Service name.
	ports := map[string]int{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if len(svc.Spec.Ports) == 0 || ports[svc.Spec.Ports[0].TargetPort] == 0 {
		t.Fatalf("the Service's targetPort names no container port (%v)", ports)
	}
	containerPort := ports[svc.Spec.Ports[0].TargetPort]
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	testPort := free.Addr().(*net.TCPAddr).Port
	free.Close()
	args := append([]string(nil), c.Args...)
	var listens bool
	for i, a := range args {
		if host, port, err := net.SplitHostPort(a); err == nil && i > 0 && args[i-1] == "--http" {
			if port != strconv.Itoa(containerPort) {
				t.Errorf("--http %s listens on %s, the container port is %d", a, port, containerPort)
			}
			args[i] = net.JoinHostPort(host, strconv.Itoa(testPort))
			listens = true
		}
	}
	if !listens {
		t.Fatalf("args %v: no --http HOST:PORT", c.Args)
	}

	// The Secret's keys become files in the secret volume's mount.
	var secretMount string
	for _, m := range c.VolumeMounts {
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.Secret != nil {
				if v.Secret.SecretName != secret.Metadata.Name {
					t.Errorf("secret volume names %s, the Secret is %s", v.Secret.SecretName, secret.Metadata.Name)
				}
				secretMount = m.MountPath
			}
		}
	}
	if secretMount == "" {
		t.Fatal("no secret volume mounted")
	}
	for k, v := range secret.StringData {
		if err := os.WriteFile(filepath.Join(mounts[secretMount], k), []byte(v), 0o440); err != nil {
			t.Fatal(err)
		}
	}

	// The content repo: a local remote.
	repo := newContentRepo(t)
	head := repo.commit(t, map[string]string{
		"config.yaml": "matching:\n  min_score: 0.2\n",
		"skills/ops/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy the service to staging and production.\n" +
			"keywords: [deploy, release, rollout]\n---\n# Deploy\n\nRun the pipeline, then watch the dashboards.\n",
	})

	// The environment: the manifest's, mount paths remapped, the repo local;
	// no HOME (the image's is on the read-only root).
	env := []string{"HOME=/nonexistent"}
	for _, e := range c.Env {
		v := e.Value
		for path, dir := range mounts {
			if v == e.Value && (v == path || strings.HasPrefix(v, path+"/")) {
				v = dir + strings.TrimPrefix(v, path) // once: the folders are under /tmp, a mount too
			}
		}
		if e.Name == "SKILLS_REPO" {
			v = "file://" + repo.bare
		}
		env = append(env, e.Name+"="+v)
	}
	// The ConfigMap's keys come in through envFrom: the pin every replica serves.
	var fromPin bool
	for _, ef := range c.EnvFrom {
		if ef.ConfigMapRef != nil && ef.ConfigMapRef.Name == pin.Metadata.Name {
			fromPin = true
		}
	}
	if !fromPin || pin.Data["SKILLS_REF"] == "" {
		t.Fatalf("the Deployment does not take SKILLS_REF from the ConfigMap %s (envFrom %+v, data %v)", pin.Metadata.Name, c.EnvFrom, pin.Data)
	}
	for k, v := range pin.Data {
		env = append(env, k+"="+v)
	}
	// The pin names the head of the repo; a commit pushed after it is not served.
	if _, err := repo.work.CreateTag(pin.Data["SKILLS_REF"], plumbing.NewHash(head), nil); err != nil {
		t.Fatal(err)
	}
	if err := repo.work.Push(&git.PushOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{"refs/tags/*:refs/tags/*"}}); err != nil {
		t.Fatal(err)
	}
	repo.commit(t, map[string]string{"skills/ops/later/SKILL.md": "---\nname: later\ndescription: Not at the pin.\n---\nLater.\n"})
	if _, ok := manifestEnv["SKILLS_HTTP_TOKEN"]; ok {
		t.Error("SKILLS_HTTP_TOKEN is set in the manifest: tokens come from the Secret as files")
	}
	httpToken := secret.StringData[filepath.Base(manifestEnv["SKILLS_HTTP_TOKEN_FILE"])]
	if httpToken == "" {
		t.Fatalf("SKILLS_HTTP_TOKEN_FILE=%s names no key of the Secret", manifestEnv["SKILLS_HTTP_TOKEN_FILE"])
	}

	grace := time.Duration(pod.TerminationGracePeriodSeconds) * time.Second
	start := c.StartupProbe
	if start == nil || c.ReadinessProbe == nil || c.LivenessProbe == nil {
		t.Fatal("want startup, readiness and liveness probes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(start.PeriodSeconds*start.FailureThreshold)*time.Second+grace+30*time.Second)
	defer cancel()
	cmd := exec.Command(binPath, args...)
	cmd.Env = env
	srv := startServing(t, ctx, cmd)

	probe := func(p *k8sProbe) (int, string) {
		port := ports[p.HTTPGet.Port]
		if port == 0 {
			t.Fatalf("probe port %q names no container port", p.HTTPGet.Port)
		}
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", testPort, p.HTTPGet.Path))
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// The startup probe, as the kubelet runs it: every period, up to the threshold.
	var started bool
	for range start.FailureThreshold {
		if code, _ := probe(start); code == http.StatusOK {
			started = true
			break
		}
		time.Sleep(time.Duration(start.PeriodSeconds) * time.Second)
	}
	if !started {
		t.Fatalf("the startup probe never passed\n%s", srv.logs.String())
	}
	// Readiness, as the kubelet runs it: every period until it passes (the pod
	// gets no traffic meanwhile). /healthz passes once the server listens;
	// /readyz only once the pinned commit is indexed and served, which on a
	// loaded machine takes more than one period: bound it by the startup window.
	ready := c.ReadinessProbe
	var code int
	var body string
	window := time.Now().Add(time.Duration(start.PeriodSeconds*start.FailureThreshold) * time.Second)
	for {
		if code, body = probe(ready); code == http.StatusOK || time.Now().After(window) {
			break
		}
		time.Sleep(time.Duration(ready.PeriodSeconds) * time.Second)
	}
	if code != http.StatusOK {
		t.Errorf("readiness probe: %d %s", code, body)
	}
	if code, body := probe(c.LivenessProbe); code != http.StatusOK {
		t.Errorf("liveness probe: %d %s", code, body)
	}

	// A client with the token from the Secret gets a skill of the repo.
	endpoint := fmt.Sprintf("http://127.0.0.1:%d/mcp", testPort)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "deploy-test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearerTransport(httpToken)}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, srv.logs.String())
	}
	for range 20 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "deploy to production"}})
		if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"skill_path":"ops/deploy"`) {
			t.Fatalf("get_skill: %v %+v", err, res)
		}
	}
	_ = cs.Close()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/healthz", testPort), nil)
	req.Header.Set("Authorization", "Bearer "+httpToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var h struct{ Mode, Commit string }
	err = json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if err != nil || h.Mode != "git" || h.Commit != head {
		t.Errorf("/healthz with the token: %+v (%v), want git mode at %s", h, err, head)
	}
	if entries, _ := os.ReadDir(mounts[manifestEnv["SKILLS_CACHE_DIR"]]); len(entries) == 0 {
		t.Errorf("nothing in the cache volume (%s, %s): the clone went elsewhere\n%s", manifestEnv["SKILLS_CACHE_DIR"], mounts[manifestEnv["SKILLS_CACHE_DIR"]], srv.logs.String())
	}

	// The memory figures hold what the process uses.
	rss, peak := procMiB(t, cmd.Process.Pid, "VmRSS"), procMiB(t, cmd.Process.Pid, "VmHWM")
	t.Logf("replica after 20 get_skill calls: RSS %.1f MiB, peak %.1f MiB", rss, peak)
	if req := mebibytes(t, c.Resources.Requests["memory"]); rss > float64(req) {
		t.Errorf("RSS %.1f MiB is above the memory request %d Mi", rss, req)
	}
	if limit := mebibytes(t, c.Resources.Limits["memory"]); peak > float64(limit)/2 {
		t.Errorf("peak RSS %.1f MiB leaves less than half of the memory limit %d Mi", peak, limit)
	}

	// SIGTERM ends the replica within the grace period.
	stopCtx, stopCancel := context.WithTimeout(ctx, grace)
	defer stopCancel()
	srv.stop(t, stopCtx)
}
