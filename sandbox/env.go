package sandbox

import "github.com/skills-mcp/skills-mcp/internal/launch"

// ArgEnvPrefix starts the name of every environment variable that carries a
// script argument: argument "name" reaches the script as SKILL_ARG_NAME
// (upper-cased, hyphens turned into underscores).
const ArgEnvPrefix = launch.ArgEnvPrefix

// SkillDirEnv names the environment variable that holds the skill's resource
// directory.
const SkillDirEnv = launch.SkillDirEnv

// MinimalEnv builds the whole environment of a script process: PATH, HOME,
// LANG and TMPDIR taken from the server's environment (PATH keeps only its
// absolute entries; PATH defaults to /usr/local/bin:/usr/bin:/bin, LANG to
// C.UTF-8 and TMPDIR to os.TempDir() when unset; HOME is left out when
// unset), SKILL_DIR=skillDir, and each argument as SKILL_ARG_NAME=value.
// Nothing else is inherited: tokens, endpoints and the server's own
// configuration never reach a script. Entries are sorted by name. It fails,
// wrapping core.ErrInvalidArgument, on an argument name outside
// [A-Za-z0-9_-]+, on a NUL byte in a value or in skillDir, and on two names
// that become the same variable.
func MinimalEnv(skillDir string, args map[string]string) ([]string, error) {
	return launch.MinimalEnv(skillDir, args)
}
