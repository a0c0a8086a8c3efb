//go:build linux

package exec_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/runners/exec"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// A confined script's attempt: what it tries, and per language the script
// doing it. Every script prints "OK ..." when the attempt succeeded, or what
// it saw when refused (an errno name or the runtime's message), then exits
// 0: the result, not a crash, says what happened.
type attempt string

const (
	readFile     attempt = "read-file"     // read SKILL_ARG_TARGET
	writeFile    attempt = "write-file"    // create SKILL_ARG_TARGET
	connectTCP   attempt = "connect-tcp"   // connect to 127.0.0.1:SKILL_ARG_PORT
	connectUnix  attempt = "connect-unix"  // connect to the unix socket SKILL_ARG_TARGET
	forkMany     attempt = "fork-many"     // start 300 processes that sleep
	allocateMany attempt = "allocate-many" // allocate 512 MiB and touch it
	legitWork    attempt = "legit-work"    // read the skill, write scratch and cwd, stdlib, JSON
)

// language is one interpreter and its scripts.
type language struct {
	name, command, ext string
	scripts            map[attempt]string
}

var languages = []language{
	{name: "bash", command: "bash", ext: ".sh", scripts: map[attempt]string{
		readFile:   `if out=$(cat "$SKILL_ARG_TARGET" 2>&1); then echo "OK $out"; else echo "$out"; fi` + "\n",
		writeFile:  `if out=$( (echo pwned > "$SKILL_ARG_TARGET") 2>&1); then echo OK; else echo "$out"; fi` + "\n",
		connectTCP: `if out=$( (exec 3<>"/dev/tcp/127.0.0.1/$SKILL_ARG_PORT") 2>&1); then echo OK; else echo "$out"; fi` + "\n",
		// bash retries a failed fork for about 30 s: the test's timeout ends it.
		forkMany:     `n=0; for i in $(seq 300); do sleep 60 & n=$((n+1)); done; echo "OK $n"` + "\n",
		allocateMany: `if x=$(head -c 536870912 /dev/zero | tr '\0' a); then echo "OK ${#x}"; fi` + "\n",
		legitWork: `set -e
skill=$(cat "$SKILL_DIR/data.txt")
echo scratch > "$TMPDIR/t"; echo home > "$HOME/h"; echo cwd > ./out.txt
sorted=$(printf 'b\na\n' | sort | tr '\n' ' ')
printf '{"skill":"%s","tmp":"%s","home":"%s","sorted":"%s"}\n' "$skill" "$(cat "$TMPDIR/t")" "$(cat "$HOME/h")" "$sorted"
`,
	}},
	{name: "python3", command: "python3", ext: ".py", scripts: map[attempt]string{
		readFile: `import os, errno
try:
    print("OK", open(os.environ["SKILL_ARG_TARGET"]).read())
except OSError as e:
    print(errno.errorcode[e.errno], e)
`,
		writeFile: `import os, errno
try:
    open(os.environ["SKILL_ARG_TARGET"], "w").write("pwned")
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno], e)
`,
		connectTCP: `import os, socket, errno
try:
    socket.create_connection(("127.0.0.1", int(os.environ["SKILL_ARG_PORT"])), timeout=10)
    print("OK")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno), e)
`,
		connectUnix: `import os, socket, errno
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect(os.environ["SKILL_ARG_TARGET"])
    print("OK")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno), e)
`,
		forkMany: `import os, time, errno
n = 0
try:
    for _ in range(300):
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        n += 1
    print("OK", n)
except OSError as e:
    print(errno.errorcode[e.errno], "after", n, "processes")
`,
		allocateMany: `try:
    b = bytearray(512 << 20)
    print("OK", len(b))
except MemoryError:
    print("MemoryError")
`,
		legitWork: `import os, json, sqlite3, hashlib, zipfile, tempfile
skill = open(os.path.join(os.environ["SKILL_DIR"], "data.txt")).read().strip()
with tempfile.NamedTemporaryFile("w", delete=False) as f:
    f.write("scratch")
open(os.path.expanduser("~/h"), "w").write("home")
open("out.txt", "w").write("cwd")
db = sqlite3.connect(":memory:")
db.execute("create table t (x)")
print(json.dumps({"skill": skill, "tmp": open(f.name).read(), "home": open(os.path.expanduser("~/h")).read(),
                  "sha": hashlib.sha256(b"x").hexdigest()[:8], "sqlite": db.execute("select count(*) from t").fetchone()[0]}))
`,
	}},
	{name: "node", command: "node", ext: ".js", scripts: map[attempt]string{
		readFile: `const fs = require("fs");
try { console.log("OK", fs.readFileSync(process.env.SKILL_ARG_TARGET, "utf8")); } catch (e) { console.log(e.code, e.message); }
`,
		writeFile: `const fs = require("fs");
try { fs.writeFileSync(process.env.SKILL_ARG_TARGET, "pwned"); console.log("OK"); } catch (e) { console.log(e.code, e.message); }
`,
		connectTCP: `const net = require("net");
const s = net.connect(Number(process.env.SKILL_ARG_PORT), "127.0.0.1", () => { console.log("OK"); s.end(); });
s.on("error", (e) => console.log(e.code, e.message));
`,
		connectUnix: `const net = require("net");
const s = net.connect(process.env.SKILL_ARG_TARGET, () => { console.log("OK"); s.end(); });
s.on("error", (e) => console.log(e.code, e.message));
`,
		forkMany: `const { spawn } = require("child_process");
let n = 0, failed = null;
for (let i = 0; i < 300 && !failed; i++) {
  try {
    const c = spawn("sleep", ["60"], { detached: false, stdio: "ignore" });
    c.on("error", (e) => { if (!failed) { failed = e.code; console.log(e.code, "after", n, "processes"); process.exit(0); } });
    c.unref();
    n++;
  } catch (e) { failed = e.code; console.log(e.code, "after", n, "processes"); }
}
setTimeout(() => { if (!failed) console.log("OK", n); process.exit(0); }, 3000);
`,
		allocateMany: `try { const b = Buffer.alloc(512 << 20, 1); console.log("OK", b.length); } catch (e) { console.log(e.name, e.message); }
`,
		legitWork: `const fs = require("fs"), os = require("os"), path = require("path"), crypto = require("crypto"), zlib = require("zlib");
const skill = fs.readFileSync(path.join(process.env.SKILL_DIR, "data.txt"), "utf8").trim();
fs.writeFileSync(path.join(os.tmpdir(), "t"), "scratch");
fs.writeFileSync(path.join(os.homedir(), "h"), "home");
fs.writeFileSync("out.txt", "cwd");
console.log(JSON.stringify({ skill, tmp: fs.readFileSync(path.join(os.tmpdir(), "t"), "utf8"),
  home: fs.readFileSync(path.join(os.homedir(), "h"), "utf8"), sha: crypto.createHash("sha256").update("x").digest("hex").slice(0, 8),
  gz: zlib.gunzipSync(zlib.gzipSync("z")).toString() }));
`,
	}},
}

// skillRequest writes the language's script for a into a fresh skill folder
// (with a data.txt) and returns a request for it, run in dir.
func skillRequest(t *testing.T, lang language, a attempt, dir string, args map[string]string) core.RunRequest {
	t.Helper()
	skill := t.TempDir()
	name := string(a) + lang.ext
	if err := os.WriteFile(filepath.Join(skill, name), []byte(lang.scripts[a]), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "data.txt"), []byte("from-the-skill\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if dir == "" {
		dir = skill
	}
	return core.RunRequest{ScriptPath: filepath.Join(skill, name), File: name, SkillDir: skill, Dir: dir, Args: args,
		MaxOutputBytes: 1 << 20}
}

// confinement is a confinement with the test's options, skipping the test
// (naming why) where this kernel cannot confine.
func confinement(t *testing.T, opts launch.ConfineOptions) *launch.Confinement {
	t.Helper()
	c, err := launch.NewConfinement(opts)
	if err != nil {
		t.Fatalf("NewConfinement: %v", err)
	}
	if err := c.Available(); err != nil {
		t.Skipf("confinement unavailable here: %v", err)
	}
	return c
}

// langRunner is the language's runner, confined by c (nil: unconfined),
// skipping the test when its interpreter is not installed.
func langRunner(t *testing.T, lang language, c *launch.Confinement) *exec.Runner {
	t.Helper()
	requireProgram(t, lang.command)
	var opts []exec.Option
	if c != nil {
		opts = append(opts, exec.WithConfinement(public(c)))
	}
	return newRunner(t, lang.command, opts...)
}

// public is c as exec.WithConfinement takes it (the command's conversion):
// the tests build theirs with options only the server sets (Launcher).
func public(c *launch.Confinement) *sandbox.Confinement {
	return launch.Public(c).(*sandbox.Confinement)
}
