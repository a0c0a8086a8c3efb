package skillscmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/internal/server"
)

// Exit codes: 0 ok, 1 the request failed, 2 usage or configuration error.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// usageError marks configuration and usage problems (exit 2). It wraps the
// error it was made from, so errors.Is still finds a cause given with %w.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }

func (e *usageError) Unwrap() error { return e.err }

// usagef is fmt.Errorf for a usage or configuration problem: %w wraps.
func usagef(format string, args ...any) error { return &usageError{fmt.Errorf(format, args...)} }

// Main is the whole skills-mcp command with the built-in plugins: New(nil).Main().
func Main() int { return New(nil).Main() }

func (c *Command) runWith(ctx context.Context, args []string, stdin io.ReadCloser, stdout, stderr io.Writer, getenv func(string) string, environ []string, procs *launch.Processes, memory server.MemoryPolicy) int {
	raw := stderr
	// No secret given to the server reaches a log line or an error message,
	// in any form (issue 16, item 11).
	stderr = secretRedactor(getenv).Writer(stderr)
	if err := checkEnvValues(getenv); err != nil {
		return exitCode(err, stderr)
	}
	log := newLogger(stderr, getenv("SKILLS_LOG_LEVEL"))
	for _, w := range misspelledEnv(environ, getenv) {
		log.Warn(w)
	}
	cmd := "serve"
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || args[0] == "--version" || args[0] == "--help" || args[0] == "-h" || args[0] == "-help") {
		cmd, args = args[0], args[1:]
	} else if i := commandAfterFlags(args); i > 0 {
		// `skills-mcp --skills-dir X list`: the flags belong to the command.
		cmd, args = args[i], append(args[:i:i], args[i+1:]...)
	}
	a := &app{cmd: c, getenv: getenv, log: log, procs: procs, memory: memory}
	var err error
	sub, isSub := commands[cmd]
	switch {
	case cmd == "serve":
		err = serve(ctx, a, args, stdin, stdout, stderr)
	case isSub:
		if getenv("SKILLS_LOG_LEVEL") == "" {
			log.SetLevel(hclog.Warn) // a terminal command prints only what matters
		}
		err = sub(ctx, a, args, stdout, stderr)
	case cmd == "version", cmd == "--version":
		fmt.Fprintln(stdout, versionString())
		fmt.Fprintln(stdout, confinementLine(getenv))
	case cmd == "help", cmd == "-h", cmd == "-help", cmd == "--help":
		fmt.Fprint(stdout, usageText)
	default:
		err = unknownCommand(cmd)
	}
	var verbatim *verbatimError
	if errors.As(err, &verbatim) {
		// Its text holds no secret (verbatimError): the redaction would only
		// mask the words of it that a short secret happens to equal.
		fmt.Fprintln(raw, "skills-mcp: "+verbatim.Error())
		return exitUsage
	}
	return exitCode(err, stderr)
}

// verbatimError is a usage error whose text is made of constants and numbers
// only, never of a value given to the server, so it is printed as it is: the
// refusal of a short token must read correctly although that token, masked
// wherever it stands as a word, could be any word of it ("short").
type verbatimError struct{ msg string }

func (e *verbatimError) Error() string { return e.msg }

// commandNames are every command, for suggestions.
func commandNames() []string {
	names := []string{"serve", "version", "help"}
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// unknownCommand is the error for a word that names no command: the command
// it is a typo of, if any, and where the list is; not the whole help.
func unknownCommand(cmd string) error {
	if near := closest(cmd, commandNames()); near != "" {
		return usagef("unknown command %q: did you mean %s? (skills-mcp help lists the commands)", cmd, near)
	}
	return usagef("unknown command %q: the commands are %s (skills-mcp help says what each does)", cmd, strings.Join(commandNames(), ", "))
}

// boolFlags are the flags of any command that take no value, so that
// commandAfterFlags does not take the word after them for their value.
var boolFlags = map[string]bool{"json": true, "explain": true, "force": true, "no-watch": true, "stateless": true, "insecure": true}

// commandAfterFlags finds a command written after flags (`skills-mcp
// --skills-dir X list`): its index in args, or -1 when the first word that
// is neither a flag nor a flag's value is no command.
func commandAfterFlags(args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return -1
		case strings.HasPrefix(a, "-"):
			if !strings.Contains(a, "=") && !boolFlags[strings.TrimLeft(a, "-")] {
				i++ // the flag's value
			}
		default:
			if _, ok := commands[a]; ok || a == "serve" {
				return i
			}
			return -1
		}
	}
	return -1
}

// app is one run of the command, handed explicitly to every subcommand: the
// Command with its plugins, the environment (secret files read), the
// logger and the process's collector policy (Main's; nil under Run).
// Nothing of it rides in a context.
type app struct {
	cmd    *Command
	getenv func(string) string
	log    hclog.Logger
	// procs is the table of script runs and helpers in progress that the
	// reaper spares (Main builds it with the subreaper); nil under Run,
	// where nothing reaps: runs and helpers are then registered nowhere.
	procs *launch.Processes
	// memory is the collector policy the server is given (Main's); nil
	// under Run.
	memory server.MemoryPolicy
}

// command is the signature of every subcommand but serve.
type command func(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error

var commands = map[string]command{
	"list": listCmd, "search": searchCmd, "get": getCmd, "validate": validateCmd, "run": runCmd, "init": initCmd,
	"eval": evalCmd, "lock": lockCmd,
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if errors.Is(err, errNoMatch) || errors.Is(err, errProblems) || errors.Is(err, errBelowFloor) {
		return exitFailed // already reported on stdout
	}
	fmt.Fprintln(stderr, "skills-mcp: "+err.Error())
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailed
}

func newLogger(w io.Writer, level string) hclog.Logger {
	lvl := hclog.LevelFromString(logLevel(level))
	if lvl == hclog.NoLevel {
		lvl = hclog.Info
	}
	return hclog.New(&hclog.LoggerOptions{Name: "skills-mcp", Output: w, Level: lvl})
}

const usageText = `Usage: skills-mcp [command] [flags]

With no command, skills-mcp is a stdio MCP server (that is how MCP clients start it).

Commands:
  serve                  serve skills over MCP on stdin/stdout (the default);
                         --http HOST:PORT serves Streamable HTTP at /mcp instead
  list [PATH]            show the skill tree (--json for list_skills' JSON)
  search CONTEXT…        what get_skill answers; --explain shows every score and why
  eval QUERIES.jsonl     routing test: top-1/top-3/no-match rates and every miss; --min-top1 0.9
                         exits 1 below it; eval init FILE writes a starter queries file
  get SKILL_PATH         a skill's resolved content, assets and scripts
  validate [DIR...]      check content repositories the way their CI would (exit 1 on errors)
  run SKILL_PATH FILE    run a server script: --arg name=value…, --cwd DIR
  init [DIR]             write a starter content repository (--format agent-skills: SKILL.md folders)
  lock [--out FILE]      write skills.lock: every served skill's URI and file digests (serve --frozen
                         FILE / SKILLS_LOCK serves only the skills that match; validate --lock FILE checks)
  version                print the version
Each command takes --help.

Sources (serve, list, search, eval, get, run):
  --skills-dir DIRS / SKILLS_DIR   local skills directories (':'-separated or the flag repeated;
                                   an earlier one wins a path, a name two own is ambiguous)
  --repo URL / SKILLS_REPO         a git content repository (SKILLS_BRANCH, GITHUB_TOKEN;
                                   SKILLS_REF pins a tag or commit and wins over SKILLS_BRANCH)
  --verify signed / SKILLS_VERIFY  git mode: serve only commits signed by a key of
  --allowed-signers FILE           SKILLS_ALLOWED_SIGNERS (git's allowed_signers format)
  neither: ./.agents/skills, ./.agent/skills, ./.claude/skills, ./skills,
           ~/.agents/skills, ~/.agent/skills, ~/.claude/skills

Streamable HTTP (serve --http ADDR / SKILLS_HTTP_ADDR; /mcp for MCP, /healthz for health, /readyz for readiness):
  --stateless / SKILLS_HTTP_STATELESS  no sessions: for several instances behind a load balancer,
                                       and the only HTTP mode that speaks protocol 2026-07-28
  SKILLS_HTTP_TOKEN                    require "Authorization: Bearer <token>" on every request
  --insecure                           allow a non-loopback address without a token
  run_script stays off over HTTP unless the operator sets SKILLS_SCRIPTS_ALLOW_REMOTE=true.

Environment: SKILLS_LOG_LEVEL (trace, debug, info, warn, error), SKILLS_STATE_DIR (default ~/.skills-mcp),
SKILLS_CACHE_DIR (the git clone), ANALYTICS_ENDPOINT, REFRESH_INTERVAL_MINUTES, SKILLS_GIT_TIMEOUT_SECONDS,
SKILLS_ANALYTICS_SINK (the analytics sink by name; with analytics enabled), SKILLS_MATCHER (the matcher
by name, default auto), SKILLS_TOOLS / serve --tools (tool sets, default core). serve --no-watch: do not
watch the skills directories. Every skill is also an MCP prompt (a slash command in hosts).
GITHUB_TOKEN_FILE, SKILLS_HTTP_TOKEN_FILE: read that secret from a file (a mounted Secret).
Scripts (serve, run; flags --scripts-*): SKILLS_SCRIPTS_SANDBOX (confined | none), SKILLS_SCRIPTS_NETWORK
(deny | allow), SKILLS_SCRIPTS_READ_ROOTS, SKILLS_SCRIPTS_WRITE_ROOTS, SKILLS_SCRIPTS_MEMORY_MB, SKILLS_SCRIPTS_ENV,
SKILLS_SCRIPTS_MAX_CONCURRENT, SKILLS_SCRIPTS_ALLOW_REMOTE, SKILLS_WASM_MOUNTS; version says what confines scripts.
OTEL_EXPORTER_OTLP_ENDPOINT (and the other OTEL_* variables): traces and metrics over OTLP/HTTP;
off when unset. docs/DEPLOY.md has the rest.

Exit codes: 0 ok, 1 problems found or the request failed, 2 usage or configuration error.
`
